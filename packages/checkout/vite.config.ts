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
    rollupOptions: {
      external: REACT,
      // The entry chunk is the card view's chunk, not a facade re-exporting it: one file less to download before a card
      // can be typed, 124 B gzip (issue 10). The price: index.js also exports, under minified names, what the on-demand
      // chunks import from it; the declarations (dist/types) name only the public surface.
      preserveEntrySignatures: 'allow-extension',
      // Everything the card view needs in one chunk (the entry's): split around modules the lazy views share, it was three files
      // that gzip each on its own (1.3 KB more in all than the same code in one file, and three requests).
      output: { codeSplitting: { groups: [{ name: 'checkout', test: /\.tsx?$/, tags: ['$initial'] }] } },
    },
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

/**
 * `vite build --mode braintree`: the real provider's client (dist/braintree.js, @kassa/checkout/braintree) on its own,
 * braintree-web left to the host app. A build of its own so the library's chunks (and the card view's size) are not
 * split around modules the two would share.
 */
const braintree: UserConfig = {
  build: {
    lib: { entry: { braintree: 'src/braintree.ts' }, formats: ['es'] },
    minify: true,
    sourcemap: true,
    emptyOutDir: false,
    rollupOptions: { external: [/^braintree-web(\/|$)/] },
  },
};

/**
 * `vite build --mode marks`: the ways to pay's marks for an integrator's own lists (dist/marks.js, @kassa/checkout/marks)
 * on their own: in the library's build they would join the chunk the card view loads.
 */
const marks: UserConfig = {
  plugins: [react()],
  build: {
    lib: { entry: { marks: 'src/marks.tsx' }, formats: ['es'] },
    minify: true,
    sourcemap: true,
    emptyOutDir: false,
    rollupOptions: { external: REACT },
  },
};

/**
 * `vite build --mode sandbox`: the sandbox's provider client (dist/sandbox.js, @kassa/checkout/sandbox) on its own, for
 * an integrator wrapping the default provider; in the library's build its export would weigh on the card view.
 */
const sandbox: UserConfig = {
  build: {
    lib: { entry: { sandbox: 'src/sandbox.ts' }, formats: ['es'] },
    minify: true,
    sourcemap: true,
    emptyOutDir: false,
  },
};

const MODES: Readonly<Record<string, UserConfig>> = { dropin, braintree, marks, sandbox };

export default defineConfig(({ mode }) => MODES[mode] ?? library);
