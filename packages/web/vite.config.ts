import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The built app is served by the server under a strict Content-Security-Policy: no inline scripts or styles, so
// the module preload polyfill (an inline-free import in Vite 8) and external CSS are all it emits.
export default defineConfig({
  plugins: [react()],
  build: { target: 'es2022', sourcemap: false, assetsInlineLimit: 0 },
});
