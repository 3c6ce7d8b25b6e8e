import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    // One module graph per worker, as the server's and the sandbox's: no file mocks modules or stubs globals.
    isolate: false,
    include: ['src/**/*.test.ts'],
    // The run's PostgreSQL server: the server project names the same setup, which starts one server for both.
    globalSetup: ['../packages/server/src/testing/postgres-global-setup.ts'],
  },
});
