import { configDefaults, defineConfig } from 'vitest/config';

/**
 * The files that replace modules with vi.mock: vitest keeps a worker's module mocks from one file to the next when the
 * files share their modules, so these run in project checkout-mocks (vitest.mocks.config.ts), a fresh module graph each.
 */
export const MOCKING_FILES = [
  'src/runtime/checkout-runtime.test.ts',
  'src/fields/hosted-fields.test.ts',
  'src/i18n/catalogue-download.test.ts',
  'src/provider/sandbox-provider-download.test.ts',
];

export default defineConfig({
  test: {
    name: 'checkout',
    // One module graph per worker, as the server's and the sandbox's; the tests of module state a first import holds
    // (catalogues, parts, views imported on demand) import the modules afresh (vi.resetModules).
    isolate: false,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, ...MOCKING_FILES],
  },
});
