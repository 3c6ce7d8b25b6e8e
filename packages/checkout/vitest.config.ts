import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const testFolders = ['src', 'test'];

/**
 * The files that replace modules with vi.mock or vi.doMock: vitest keeps a worker's module mocks from one file to the
 * next when the files share their modules, so these run in project checkout-mocks (vitest.mocks.config.ts), a fresh
 * module graph each. Found by reading the test files, so a new one cannot be left in the shared graph by mistake.
 */
export const MOCKING_FILES = testFolders.flatMap((folder) =>
  readdirSync(join(import.meta.dirname, folder), { recursive: true, encoding: 'utf8' })
    .map((file) => `${folder}/${file}`)
    .filter(
      (file) => /\.test\.tsx?$/.test(file) && /\bvi\.(mock|doMock)\(/.test(readFileSync(join(import.meta.dirname, file), 'utf8')),
    ),
);

export default defineConfig({
  test: {
    name: 'checkout',
    // One module graph per worker, as the server's and the sandbox's; the tests of module state a first import holds
    // (catalogues, parts, views imported on demand) import the modules afresh (vi.resetModules).
    isolate: false,
    include: testFolders.flatMap((folder) => [`${folder}/**/*.test.ts`, `${folder}/**/*.test.tsx`]),
    exclude: [...configDefaults.exclude, ...MOCKING_FILES],
  },
});
