import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

// A brace lost in a merge turns every later rule into a nested one: the host page's own stylesheet, bundled after
// ours, then stops applying (it happened once: the whole shop rendered unstyled). Plain CSS here has no nesting.
describe('checkout.css', () => {
  it('closes every block it opens, and nests rules only inside at-rules', () => {
    const css = readFileSync(join(import.meta.dirname, 'checkout.css'), 'utf8').replace(/\/\*[\s\S]*?\*\//g, '');
    const open: string[] = [];
    let prelude = '';
    for (const char of css) {
      if (char === '{') {
        const selector = prelude.trim();
        const parent = open.at(-1);
        if (parent !== undefined && !parent.startsWith('@')) throw new Error(`"${selector}" is nested in "${parent}"`);
        open.push(selector);
        prelude = '';
      } else if (char === '}') {
        expect(open.pop(), 'a closing brace without its block').toBeDefined();
        prelude = '';
      } else if (char === ';') {
        prelude = '';
      } else {
        prelude += char;
      }
    }
    expect(open).toEqual([]);
  });
});
