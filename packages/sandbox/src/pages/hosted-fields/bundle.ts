import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

let frameScript: Promise<string> | undefined;

/**
 * The hosted field frame script, bundled from frame.ts in memory once per process (iife, minified): the sandbox
 * needs no build step, and the size budget check measures exactly what browsers receive.
 */
export function bundleFrameScript(): Promise<string> {
  frameScript ??= build({
    entryPoints: [fileURLToPath(new URL('./frame.ts', import.meta.url))],
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
    if (output === undefined) throw new Error('esbuild produced no frame script');
    return output.text;
  });
  return frameScript;
}
