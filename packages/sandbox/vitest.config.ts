import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'sandbox',
    // One module graph per worker: these files import the same server, SDK and database modules, and loading them
    // afresh for each of ~100 files cost more than the tests themselves. No file mocks modules or stubs globals.
    isolate: false,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
