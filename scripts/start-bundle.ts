// A start script and the workspace's modules it imports, as one file built by esbuild, for the e2e run's Kassas: each of
// the run's nine starts spent 3.1-3.6 s of its 4.5-5.4 s of CPU in tsx loading ~620 modules through its hooks; from the
// bundle, node loads one file and the third-party packages (left as imports of node_modules) without hooks.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { isBuiltin } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

/** Each bundled source file's path and its modification time when the bundle was built, beside the bundle. */
const inputsFile = (bundle: string): string => `${bundle}.inputs.json`;

/** The package a bare import names: `@scope/name` or `name`, without a path inside it. */
function packageName(specifier: string): string {
  const [first = '', second = ''] = specifier.split('/');
  return first.startsWith('@') ? `${first}/${second}` : first;
}

/** The folder node finds package `name` in from `dir` (the nearest node_modules holding it), or null. */
function packageFolder(dir: string, name: string): string | null {
  for (let at = dir; ; at = dirname(at)) {
    const folder = join(at, 'node_modules', name);
    if (existsSync(folder)) return folder;
    if (dirname(at) === at) return null;
  }
}

/**
 * Bundles `entry` into `bundle` (ESM, beside a node_modules it can import from). The workspace's packages (`@kassa/…`)
 * and relative imports are bundled, every other package stays an import, which node resolves from the bundle's folder:
 * a package a bundled file would find elsewhere (a part's own node_modules, another version) fails the build rather
 * than being swapped silently. A module's `import.meta.url` and `import.meta.dirname` stay its source file's, so the
 * files it reads beside itself (the sandbox's pages and the scripts it bundles for the browser) are found as under tsx.
 */
export async function buildStartBundle(entry: string, bundle: string): Promise<void> {
  const { metafile } = await build({
    entryPoints: [entry],
    outfile: bundle,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    metafile: true,
    logLevel: 'warning',
    plugins: [
      {
        name: 'workspace-only',
        setup(builder) {
          builder.onResolve({ filter: /^[^./]/ }, ({ path, importer, resolveDir }) => {
            if (path.startsWith('@kassa/')) return undefined;
            const name = packageName(path);
            const found = isBuiltin(path) ? null : packageFolder(resolveDir, name);
            const imported = isBuiltin(path) ? null : packageFolder(dirname(bundle), name);
            if (found === imported) return { external: true };
            const text = `${importer} finds ${name} in ${found ?? 'no node_modules'}, the bundle in ${imported ?? 'none'}`;
            return { errors: [{ text }] };
          });
          builder.onLoad({ filter: /\.tsx?$/ }, async ({ path }) => ({
            loader: path.endsWith('x') ? 'tsx' : 'ts',
            contents: (await readFile(path, 'utf8'))
              .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(path).href))
              .replaceAll('import.meta.dirname', JSON.stringify(dirname(path))),
          }));
        },
      },
    ],
  });
  const inputs = Object.keys(metafile.inputs).map((input) => resolve(input));
  writeFileSync(inputsFile(bundle), JSON.stringify(Object.fromEntries(inputs.map((path) => [path, modified(path)]))));
}

/** The bundled source files changed (or gone) since `bundle` was built: a start from it would run older code. */
export function staleInputs(bundle: string): string[] {
  const inputs = JSON.parse(readFileSync(inputsFile(bundle), 'utf8')) as Record<string, number>;
  return Object.entries(inputs).flatMap(([path, built]) => (modified(path) === built ? [] : [path]));
}

function modified(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}
