import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';

const MAIN = new URL('../main.ts', import.meta.url);

/**
 * Test support: `main.ts` (`npm run sandbox`) bundled into one ES module at `outfile`, which plain Node starts in a
 * fraction of tsx's time (its module hooks cost a start about 1.4 s of CPU against 0.6 s): for test runs that start
 * many sandbox processes (the server's). Packages stay imports, so `outfile` must be inside the repository, where Node
 * finds them in node_modules. Each source file keeps its own import.meta.url, from which the sandbox reads its pages
 * and bundles their scripts.
 */
export async function bundleMain(outfile: string): Promise<void> {
  await build({
    entryPoints: [fileURLToPath(MAIN)],
    outfile,
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
    plugins: [
      {
        name: 'own-import-meta-url',
        setup(bundler) {
          bundler.onLoad({ filter: /\.ts$/ }, async ({ path }) => ({
            contents: (await readFile(path, 'utf8')).replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href)),
            loader: 'ts',
            resolveDir: dirname(path),
          }));
        },
      },
    ],
  });
}
