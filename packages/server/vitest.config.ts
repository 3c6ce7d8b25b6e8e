import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    // One module graph per worker: these files import the same server, SDK and database modules, and loading them
    // afresh for each of ~100 files cost more than the tests themselves. No file mocks modules or stubs globals.
    isolate: false,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
    // One PostgreSQL server for the run (each test makes its own database on it), and one bundle of the sandbox gateway
    // that its processes start from.
    globalSetup: ['src/testing/postgres-global-setup.ts', 'src/testing/sandbox-global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
