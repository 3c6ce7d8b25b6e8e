import react from '@vitejs/plugin-react';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import { defaultClientConditions, defineConfig, type Plugin } from 'vite';

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
        const files = new Set<string>();
        const visit = (fileName: string): void => {
          const found = bundle[fileName];
          if (found?.type !== 'chunk' || files.has(fileName) || fileName === chunk.fileName || chunk.imports.includes(fileName))
            return;
          files.add(fileName);
          for (const imported of found.imports) visit(imported);
        };
        for (const fileName of chunk.dynamicImports) {
          const found = bundle[fileName];
          if (found?.type === 'chunk' && found.facadeModuleId === app) visit(fileName);
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
    rollupOptions: { input: { main: page('index.html'), plain: page('plain-checkout.html') } },
  },
});
