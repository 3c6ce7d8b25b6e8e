import { describe, expect, it } from 'vitest';
import { unstorableTextPath } from './parse.ts';

describe('unstorableTextPath', () => {
  it('names the path of the first NUL or lone surrogate, in a value or a key, at any depth; null when all is storable', () => {
    expect(unstorableTextPath({ nonce: 'abc', order: { lines: [{ sku: 'ok' }, { sku: 'a\0b' }] } })).toEqual([
      'order',
      'lines',
      '1',
      'sku',
    ]);
    expect(unstorableTextPath({ note: { ['k\uD800']: 'fine' } })).toEqual(['note', 'k\uD800']);
    expect(unstorableTextPath({ a: 'x', b: '\uDC00y', c: '\0' })).toEqual(['b']);
    expect(unstorableTextPath('\0')).toEqual([]);
    // A surrogate pair is text: an emoji is stored as it is.
    expect(unstorableTextPath({ name: '\uD83D\uDE00', list: [1, null, true, 'ok'] })).toBeNull();
  });
});
