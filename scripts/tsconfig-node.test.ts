import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

// tsconfig.node.json checks the server, the scripts and the bench as one program for `tsc -b` (npm run typecheck), its
// includes written out again beside each part's own tsconfig.json (which editors and `tsc -p` in one part read): a file
// a part's own tsconfig takes in must be in it too, or the type check would skip it without a word.
const root = join(import.meta.dirname, '..');
const PARTS = ['packages/server', 'scripts', 'bench'];

/** The files a tsconfig takes in, as tsc lists them (its include, comments in the JSON allowed). */
function filesOf(config: string): string[] {
  const { config: json, error } = ts.readConfigFile(config, ts.sys.readFile);
  if (error !== undefined) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return ts.parseJsonConfigFileContent(json, ts.sys, dirname(config)).fileNames;
}

describe('tsconfig.node.json', () => {
  it("takes in every file of the server's, the scripts' and the bench's own tsconfig.json", () => {
    const checked = new Set(filesOf(join(root, 'tsconfig.node.json')));
    for (const part of PARTS) {
      const files = filesOf(join(root, part, 'tsconfig.json'));
      expect(files.length).toBeGreaterThan(0);
      expect({ part, left: files.filter((file) => !checked.has(file)) }).toEqual({ part, left: [] });
    }
  });
});
