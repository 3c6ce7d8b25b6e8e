import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const bundles = new Map<string, Promise<string>>();

export interface BundleOptions {
  /** `iife` (default): a page's script; `esm`: a module a page's script imports. */
  readonly format?: 'iife' | 'esm';
  /** Identifiers replaced by these expressions (esbuild's `define`). */
  readonly define?: Readonly<Record<string, string>>;
}

/**
 * A page script bundled from its TypeScript entry in memory, once per process (minified): the sandbox needs no build
 * step, and size budgets measure exactly what browsers receive. One entry, one set of options.
 */
export function bundleScript(entry: URL, { format = 'iife', define }: BundleOptions = {}): Promise<string> {
  const path = fileURLToPath(entry);
  let bundle = bundles.get(path);
  if (bundle === undefined) {
    bundle = build({
      entryPoints: [path],
      bundle: true,
      write: false,
      format,
      ...(define !== undefined ? { define } : {}),
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
