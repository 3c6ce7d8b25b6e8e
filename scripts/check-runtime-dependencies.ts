// `npm start` on a production install (`npm ci --omit=dev`) must find every package it loads: the tools it runs at
// runtime (tsx, Vite, esbuild, pino-pretty) belong in `dependencies`, not `devDependencies` (issue 10). This walks the
// files that `npm start`, `npm run sandbox` and the server load, from their entries through relative imports, the
// workspace packages' exports, the sandbox's bundled page scripts and the web app's HTML entries (Vite builds it at
// start), and fails naming each package they import that no package.json lists under `dependencies`. Type-only
// imports are left out: they are gone at runtime.
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');

/** Where the walk starts: what the root's scripts run, and what they hand to other tools by path. */
const ENTRIES = [
  'scripts/bootstrap.mjs',
  'scripts/start.ts',
  'packages/sandbox/src/main.ts',
  'packages/server/src/main.ts',
  // scripts/build-web.ts gives Vite the web app's config and root (its HTML entries) by path.
  'packages/web/vite.config.ts',
  'packages/web/index.html',
  'packages/web/plain-checkout.html',
];
/** Packages loaded by name, not by an import: bootstrap.mjs runs every task with `node --import tsx`. */
const LOADED_BY_NAME = ['tsx'];

interface Manifest {
  name?: string;
  dependencies?: Record<string, string>;
  workspaces?: string[];
  exports?: string | Record<string, string | Record<string, string>>;
}
const readManifest = (folder: string): Manifest => JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as Manifest;

const rootManifest = readManifest(root);
const workspaces = new Map(
  (rootManifest.workspaces ?? []).map((folder) => {
    const manifest = readManifest(join(root, folder));
    return [manifest.name ?? folder, { folder: join(root, folder), manifest }] as const;
  }),
);
/** A production install holds the dependencies of the root and of every workspace (hoisted into one node_modules). */
const installed = new Set(
  [rootManifest, ...[...workspaces.values()].map((w) => w.manifest)].flatMap((m) => Object.keys(m.dependencies ?? {})),
);
const builtins = new Set(builtinModules);

const IMPORTS = [
  // import x from '…', import { a, type B } from '…', export { a } from '…' (not `import type` / `export type`)
  /^\s*(?:import|export)\s+(?!type\s)[^'";]*?\sfrom\s*['"]([^'"]+)['"]/gm,
  /^\s*import\s*['"]([^'"]+)['"]/gm, // import '…' (side effects)
  /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g, // import('…')
  /\bnew URL\(\s*['"](\.[^'"]+\.tsx?)['"]\s*,\s*import\.meta\.url/g, // a script handed to a bundler (the sandbox's pages)
];
const HTML_SCRIPTS = /<script\b[^>]*\bsrc="([^"]+)"/g;

function resolveFile(path: string): string | null {
  const stem = path.replace(/\.js$/, '');
  for (const candidate of [path, `${stem}.ts`, `${stem}.tsx`, join(path, 'index.ts'), join(path, 'index.tsx')]) {
    if (existsSync(candidate) && !candidate.endsWith('/')) return candidate;
  }
  return null;
}

/** A workspace package's file for `specifier` (its exports, the sources' condition first), or null if it is not one. */
function workspaceFile(specifier: string): string | null {
  const name = [...workspaces.keys()].find((n) => specifier === n || specifier.startsWith(`${n}/`));
  if (name === undefined) return null;
  const { folder, manifest } = workspaces.get(name) ?? { folder: '', manifest: {} };
  const subpath = `.${specifier.slice(name.length)}`;
  const exported = typeof manifest.exports === 'string' ? { '.': manifest.exports } : (manifest.exports ?? {});
  const target = exported[subpath];
  const file = typeof target === 'string' ? target : (target?.['@kassa/source'] ?? target?.default);
  if (file === undefined) throw new Error(`${specifier}: ${name} exports no ${subpath}`);
  return join(folder, file);
}

const packageOf = (specifier: string): string =>
  specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? specifier);

/** Each package imported, with the first file that imports it. */
const imported = new Map<string, string>(LOADED_BY_NAME.map((name) => [name, 'scripts/bootstrap.mjs']));
const seen = new Set<string>();
const queue = ENTRIES.map((entry) => join(root, entry));
for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
  if (seen.has(file)) continue;
  seen.add(file);
  if (!/\.(ts|tsx|mjs|js|html)$/.test(file)) continue; // stylesheets and assets import no packages
  const text = readFileSync(file, 'utf8');
  const specifiers = file.endsWith('.html')
    ? [...text.matchAll(HTML_SCRIPTS)].map((m) => `.${m[1]}`) // the web root is the HTML's folder
    : IMPORTS.flatMap((pattern) => [...text.matchAll(pattern)].map((m) => m[1] ?? ''));
  for (const specifier of specifiers) {
    if (specifier.startsWith('.')) {
      const target = resolveFile(resolve(dirname(file), specifier));
      if (target === null) throw new Error(`${relative(root, file)}: cannot resolve ${specifier}`);
      queue.push(target);
      continue;
    }
    if (specifier.startsWith('node:') || builtins.has(specifier)) continue;
    const workspace = workspaceFile(specifier);
    if (workspace !== null) {
      queue.push(workspace);
      continue;
    }
    const name = packageOf(specifier);
    if (!imported.has(name)) imported.set(name, relative(root, file));
  }
}

const missing = [...imported].filter(([name]) => !installed.has(name));
console.log(`${seen.size} files loaded at runtime import ${imported.size} packages: ${[...imported.keys()].sort().join(', ')}`);
for (const [name, file] of missing) {
  console.log(`NOT in any package.json's dependencies (a production install lacks it): ${name}, imported by ${file}`);
}
process.exit(missing.length > 0 ? 1 : 0);
