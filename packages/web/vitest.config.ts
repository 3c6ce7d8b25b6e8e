import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'web',
    // One module graph per worker, as the server's and the sandbox's: no file mocks modules or stubs globals.
    isolate: false,
    include: ['src/**/*.test.ts', 'src/**/*.test.tsx'],
  },
});
