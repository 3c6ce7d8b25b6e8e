import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildStartBundle, staleInputs } from './start-bundle.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A start script importing a module that reads a file beside itself, bundled. */
async function bundled(): Promise<{ dir: string; bundle: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'start-bundle-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'start.ts'), "import { page } from './pages/page.ts';\nconsole.log(page);\n");
  mkdirSync(join(dir, 'pages'));
  writeFileSync(
    join(dir, 'pages', 'page.ts'),
    "import { readFileSync } from 'node:fs';\nimport { join } from 'node:path';\n" +
      "export const page = readFileSync(new URL('./page.html', import.meta.url), 'utf8') + " +
      "readFileSync(join(import.meta.dirname, 'page.css'), 'utf8');\n",
  );
  writeFileSync(join(dir, 'pages', 'page.html'), '<p>');
  writeFileSync(join(dir, 'pages', 'page.css'), 'p{}');
  const bundle = join(dir, 'out', 'start.mjs');
  await buildStartBundle(join(dir, 'start.ts'), bundle);
  return { dir, bundle };
}

describe('buildStartBundle', () => {
  it("keeps each module's import.meta.url and import.meta.dirname its source file's", async () => {
    const { bundle } = await bundled();
    expect(execFileSync(process.execPath, [bundle], { encoding: 'utf8' })).toBe('<p>p{}\n');
  });

  it("refuses a package a bundled file finds in a node_modules other than the bundle's (a part's own), not swapping it", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'start-bundle-'));
    dirs.push(dir);
    /** A package `shout` in `at`'s node_modules, whose `shout()` gives `said`. */
    const installShout = (at: string, said: string): void => {
      const folder = join(at, 'node_modules', 'shout');
      mkdirSync(folder, { recursive: true });
      writeFileSync(join(folder, 'package.json'), '{ "name": "shout", "type": "module", "exports": "./index.js" }');
      writeFileSync(join(folder, 'index.js'), `export const shout = () => '${said}';\n`);
    };
    installShout(dir, 'root');
    mkdirSync(join(dir, 'part'));
    writeFileSync(join(dir, 'part', 'start.ts'), "import { shout } from 'shout';\nconsole.log(shout());\n");
    const bundle = join(dir, 'out', 'start.mjs');
    // The same package from both: an import of the bundle's.
    await buildStartBundle(join(dir, 'part', 'start.ts'), bundle);
    expect(execFileSync(process.execPath, [bundle], { encoding: 'utf8' })).toBe('root\n');
    installShout(join(dir, 'part'), 'part');
    await expect(buildStartBundle(join(dir, 'part', 'start.ts'), bundle)).rejects.toThrow(
      `finds shout in ${join(dir, 'part', 'node_modules', 'shout')}, the bundle in ${join(dir, 'node_modules', 'shout')}`,
    );
  });

  it('names the bundled source files changed or removed since the bundle was built', async () => {
    const { dir, bundle } = await bundled();
    expect(staleInputs(bundle)).toEqual([]);
    const later = new Date(Date.now() + 60_000);
    utimesSync(join(dir, 'pages', 'page.ts'), later, later);
    rmSync(join(dir, 'start.ts'));
    expect(staleInputs(bundle).sort()).toEqual([join(dir, 'pages', 'page.ts'), join(dir, 'start.ts')]);
  });
});
