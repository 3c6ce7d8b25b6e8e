import { defineConfig } from 'vitest/config';

// One vitest run covers every part; each part names itself in its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/checkout', 'packages/sandbox', 'packages/server', 'packages/web'],
  },
});
