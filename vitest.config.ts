import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One vitest run covers every part; each part names itself in its own vitest.config.ts (the checkout's files that
// mock modules in a second project, vitest.mocks.config.ts).
export default defineConfig({
  test: {
    projects: [
      'packages/checkout',
      'packages/checkout/vitest.mocks.config.ts',
      'packages/sandbox',
      'packages/server',
      'packages/web',
      'bench',
      'scripts',
    ],
    // Most files wait on a sandbox process, SQLite's syncs or PostgreSQL: one worker more than the cores keeps the
    // cores busy (vitest's default is one fewer, a single worker on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
  },
});
