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

const installScripts = ensureDependencies();
// `npm test`'s first steps load no native module, so they run while a fresh install's scripts finish (better-sqlite3
// compiles from source here, about 55 s on one core); the other tasks wait for them.
const scriptsBesideTask = installScripts && task === 'test';
if (installScripts && !scriptsBesideTask && !(await installScripts)) process.exit(1);

const child = spawn(process.execPath, ['--import', 'tsx', join(root, tasks[task]), ...process.argv.slice(3)], {
  cwd: root,
  // test.ts learns over the IPC channel when the install scripts are done.
  stdio: scriptsBesideTask ? ['inherit', 'inherit', 'inherit', 'ipc'] : 'inherit',
});
if (scriptsBesideTask) installScripts.then((ok) => child.connected && child.send({ installScripts: ok ? 'ok' : 'failed' }));
// The child owns shutdown: Ctrl-C reaches the whole process group, so the parent only waits for the child's exit.
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

/**
 * Installs the locked dependencies unless the last install was of this package-lock.json. Returns nothing when it was,
 * else the install scripts' run (resolves to whether they succeeded).
 */
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
  // The packages' install scripts run afterwards (runInstallScripts), so the slow one can overlap `npm test`'s first steps.
  const result = spawnSync('npm', ['ci', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    console.error('npm ci failed: see the output above.');
    process.exit(result.status ?? 1);
  }
  return runInstallScripts(() => writeFileSync(stamp, wanted));
}

/**
 * The install scripts `npm ci --ignore-scripts` skipped, of the packages package.json allows them for, in the
 * background, their output shown only if they fail. The install counts as done (`done`) once they succeed.
 */
function runInstallScripts(done) {
  const allowed = Object.keys(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).allowScripts ?? {});
  console.log(`Running the install scripts of ${allowed.join(', ')} (better-sqlite3 compiles SQLite from source)...`);
  // better-sqlite3 builds SQLite at -O3: here about 130 s of one core, at -O2 about 95, with SQLite's CPU on a
  // payment-like statement mix no higher (measured on this machine, three builds alternating). -O2 is SQLite's own
  // default; flags the caller set come after, so theirs win.
  const optimised = (flags) => ['-O2', flags].filter(Boolean).join(' ');
  const env = { ...process.env, CFLAGS: optimised(process.env.CFLAGS), CXXFLAGS: optimised(process.env.CXXFLAGS) };
  const scripts = spawn('npm', ['rebuild', ...allowed], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  for (const stream of [scripts.stdout, scripts.stderr]) stream.on('data', (chunk) => (output += chunk));
  return new Promise((resolve) => {
    scripts.on('close', (code) => {
      if (code === 0) {
        done();
        return resolve(true);
      }
      process.stderr.write(output);
      console.error(`npm rebuild ${allowed.join(' ')} (the install scripts) failed: see the output above.`);
      resolve(false);
    });
  });
}
