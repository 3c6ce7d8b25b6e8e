import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'bench',
    // One module graph per worker, as the server's and the sandbox's: no file mocks modules or stubs globals.
    isolate: false,
    include: ['src/**/*.test.ts'],
    // One PostgreSQL server for the project's files (the server's tests start theirs the same way).
    globalSetup: ['../packages/server/src/testing/postgres-global-setup.ts'],
  },
});
