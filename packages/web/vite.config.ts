import react from '@vitejs/plugin-react';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { defaultClientConditions, defineConfig, type Plugin, type Rolldown } from 'vite';

const page = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

/**
 * main.tsx imports the app (render.tsx) only once it has asked the server for what the page needs; the HTML preloads
 * the app's chunks beside the entry's, so they download at once rather than after the entry has run (issue 10).
 */
function preloadTheApp(): Plugin {
  const app = page('src/render.tsx');
  return {
    name: 'kassa:preload-the-app',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { chunk, bundle }) {
        if (chunk === undefined || bundle === undefined) return [];
        // A chunk and the chunks it imports, those in `known` left out.
        const closure = (fileName: string, known: ReadonlySet<string>): Set<string> => {
          const files = new Set<string>();
          const visit = (name: string): void => {
            const found = bundle[name];
            if (found?.type !== 'chunk' || files.has(name) || known.has(name)) return;
            files.add(name);
            for (const imported of found.imports) visit(imported);
          };
          visit(fileName);
          return files;
        };
        // The entry's own chunks Vite preloads already.
        const entry = closure(chunk.fileName, new Set());
        const files = new Set<string>();
        for (const fileName of chunk.dynamicImports) {
          const found = bundle[fileName];
          if (found?.type === 'chunk' && found.facadeModuleId === app)
            for (const name of closure(fileName, entry)) files.add(name);
        }
        return [...files].map((fileName) => ({
          tag: 'link',
          attrs: { rel: 'modulepreload', crossorigin: true, href: `/${fileName}` },
          injectTo: 'head' as const,
        }));
      },
    },
  };
}

/**
 * What the app (render.tsx) imports but the entry (main.tsx) does not, in one chunk: React DOM, the checkout, and the web
 * modules the plain page imports too; the shop's pages stay in the app's own chunk. Left to the automatic split, each
 * set of modules the on-demand views share with the app made a chunk of its own: the checkout page's HTML asked for 13
 * scripts and stylesheets, six of them under 1 KB, beyond the 6 connections Chromium opens to a host (issue 10; 7 now).
 * A module's imports are not pulled in with it (`includeDependenciesRecursively`): React, which the entry imports too,
 * stays in the entry's chunk, so the entry runs without this one. The plain page loads 815 B more with it.
 */
function appLibrariesChunk(): Rolldown.CodeSplittingNameFunction {
  const app = page('src/render.tsx');
  const entry = page('src/main.tsx');
  const plain = page('src/plain-checkout/plain-checkout.ts');
  const web = page('src/');
  const reached = (from: string, ctx: Rolldown.ChunkingContext): Set<string> => {
    const found = new Set<string>();
    const visit = (id: string): void => {
      if (found.has(id)) return;
      found.add(id);
      for (const imported of ctx.getModuleInfo(id)?.importedIds ?? []) visit(imported);
    };
    visit(from);
    return found;
  };
  let graphs: { app: Set<string>; entry: Set<string>; plain: Set<string> } | undefined;
  return (id, ctx) => {
    graphs ??= { app: reached(app, ctx), entry: reached(entry, ctx), plain: reached(plain, ctx) };
    if (!graphs.app.has(id) || graphs.entry.has(id)) return null;
    return !id.startsWith(web) || graphs.plain.has(id) ? 'app-libraries' : null;
  };
}

/**
 * A gzip copy beside each script, stylesheet and page the build writes (`.gz`), which the server sends to a browser
 * that takes gzip: a shopper's first visit downloads about a third (issue 10). gzip, not Brotli: browsers send Brotli
 * only over https, and its best level took 20 s more per build here.
 */
function gzipCopies(): Plugin {
  const compress = promisify(gzip);
  return {
    name: 'kassa:gzip-copies',
    apply: 'build',
    async writeBundle({ dir = '' }, bundle) {
      const files = Object.values(bundle).filter((file) => /\.(js|css|html)$/.test(file.fileName));
      await Promise.all(
        files.map(async (file) => {
          const content = file.type === 'chunk' ? file.code : file.source;
          await writeFile(join(dir, `${file.fileName}.gz`), await compress(content, { level: 9 }));
        }),
      );
    },
  };
}

// The built app is served by the server under a strict Content-Security-Policy: no inline scripts or styles, so
// the module preload polyfill (an inline-free import in Vite 8) and external CSS are all it emits.
export default defineConfig({
  plugins: [react(), preloadTheApp(), gzipCopies()],
  // The workspace's @kassa/checkout from its sources (its `@kassa/source` export condition): no build of it first.
  resolve: { conditions: ['@kassa/source', ...defaultClientConditions] },
  build: {
    target: 'es2022',
    sourcemap: false,
    assetsInlineLimit: 0,
    // The shop, and the plain page that pays with the drop-in entry and a form post (no React of its own).
    rolldownOptions: {
      input: { main: page('index.html'), plain: page('plain-checkout.html') },
      output: {
        codeSplitting: {
          groups: [{ name: appLibrariesChunk(), debugName: 'app-libraries', includeDependenciesRecursively: false }],
        },
      },
    },
  },
});
