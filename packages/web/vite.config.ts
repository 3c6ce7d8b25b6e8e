import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';

const page = (file: string): string => fileURLToPath(new URL(file, import.meta.url));

// The built app is served by the server under a strict Content-Security-Policy: no inline scripts or styles, so
// the module preload polyfill (an inline-free import in Vite 8) and external CSS are all it emits.
export default defineConfig({
  plugins: [react()],
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
