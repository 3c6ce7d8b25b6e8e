import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Library build: one ES module plus one CSS file; React stays the host app's (peer dependency).
export default defineConfig({
  plugins: [react()],
  build: {
    lib: {
      entry: { index: 'src/index.ts', styles: 'src/styles/checkout.css' },
      formats: ['es'],
    },
    minify: true,
    cssCodeSplit: true,
    sourcemap: true,
    rollupOptions: {
      external: ['react', 'react-dom', 'react/jsx-runtime', 'react-dom/client', 'react-dom/server'],
    },
  },
});
