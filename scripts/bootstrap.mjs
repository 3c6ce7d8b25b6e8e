#!/usr/bin/env node
// The one entry behind `npm start`, `npm test` and `npm run sandbox`: installs the locked dependencies on first use
// (or when package-lock.json changed since the last install), then hands over to the TypeScript task. Uses nothing
// but Node itself, because it runs before anything is installed.
import { spawnSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const tasks = {
  start: 'scripts/start.ts',
  test: 'scripts/test.ts',
  sandbox: 'packages/sandbox/src/main.ts',
  bench: 'bench/src/main.ts',
};

const task = process.argv[2];
if (!(task in tasks)) {
  console.error(`usage: node scripts/bootstrap.mjs <${Object.keys(tasks).join('|')}>`);
  process.exit(2);
}

ensureDependencies();

const child = spawn(process.execPath, ['--import', 'tsx', join(root, tasks[task]), ...process.argv.slice(3)], {
  cwd: root,
  stdio: 'inherit',
});
// The child owns shutdown: Ctrl-C reaches the whole process group, so the parent only waits for the child's exit.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

function ensureDependencies() {
  const lockfile = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.kassa-installed');
  const wanted = createHash('sha256').update(readFileSync(lockfile)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === wanted) return;
  const modules = join(root, 'node_modules');
  // npm ci empties node_modules first: through a link, that is another checkout's install (a worktree set up for
  // `npm run bench -- --before` links to this one's), which its own lockfile may not match.
  if (existsSync(modules) && lstatSync(modules).isSymbolicLink()) {
    console.error(`${modules} is a link to another install that does not match this package-lock.json: not installing`);
    console.error('through it. Replace the link with a copy (cp -al) or an install of its own, then run this again.');
    process.exit(1);
  }
  console.log('Installing dependencies (npm ci): first run or package-lock.json changed...');
  const result = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed: see the output above.');
    process.exit(result.status ?? 1);
  }
  writeFileSync(stamp, wanted);
}
