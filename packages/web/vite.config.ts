import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
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

// The built app is served by the server under a strict Content-Security-Policy: no inline scripts or styles, so
// the module preload polyfill (an inline-free import in Vite 8) and external CSS are all it emits.
export default defineConfig({
  plugins: [react(), preloadTheApp()],
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
