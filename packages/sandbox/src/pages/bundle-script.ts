import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const bundles = new Map<string, Promise<string>>();

/**
 * A page script bundled from its TypeScript entry in memory, once per process (iife, minified): the sandbox needs no
 * build step, and size budgets measure exactly what browsers receive.
 */
export function bundleScript(entry: URL): Promise<string> {
  const path = fileURLToPath(entry);
  let bundle = bundles.get(path);
  if (bundle === undefined) {
    bundle = build({
      entryPoints: [path],
      bundle: true,
      write: false,
      format: 'iife',
      minify: true,
      platform: 'browser',
      target: ['es2020'],
      legalComments: 'none',
      logLevel: 'silent',
    }).then((result) => {
      const [output] = result.outputFiles;
      if (output === undefined) throw new Error(`esbuild produced no script for ${path}`);
      return output.text;
    });
    bundles.set(path, bundle);
  }
  return bundle;
}
