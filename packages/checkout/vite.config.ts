import react from '@vitejs/plugin-react';
import { defineConfig, type UserConfig } from 'vite';

const REACT = ['react', 'react-dom', 'react/jsx-runtime', 'react/jsx-dev-runtime', 'react-dom/client', 'react-dom/server'];

/** `vite build`: the React library, one ES module (+ on-demand chunks) and one CSS file; React stays the host app's. */
const library: UserConfig = {
  plugins: [react()],
  build: {
    lib: {
      entry: { index: 'src/index.ts', styles: 'src/styles/checkout.css' },
      formats: ['es'],
    },
    minify: true,
    cssCodeSplit: true,
    sourcemap: true,
    rollupOptions: { external: REACT },
  },
};

/**
 * `vite build --mode dropin`: the plain-page entry (dist/dropin.js) with React bundled in, since the host page has
 * none. Built after the library into the same folder.
 */
const dropin: UserConfig = {
  plugins: [react()],
  define: { 'process.env.NODE_ENV': JSON.stringify('production') },
  build: {
    lib: { entry: { dropin: 'src/dropin.tsx' }, formats: ['es'] },
    minify: true,
    sourcemap: true,
    emptyOutDir: false,
    rolldownOptions: { output: { minify: true } },
  },
};

export default defineConfig(({ mode }) => (mode === 'dropin' ? dropin : library));
