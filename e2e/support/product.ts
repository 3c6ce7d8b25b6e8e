import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { webDist } from '../../scripts/build-web.ts';
import { staleInputs } from '../../scripts/start-bundle.ts';

/**
 * Kassa as `npm start` runs it, on free ports, with its data and server log in a fresh folder, and the sandbox
 * gateway's test-only fault controls on (support/sandbox-faults.ts).
 */
export interface RunningProduct {
  shopUrl: string;
  /** The built web app this product serves. */
  webDist: string;
  sandboxUrl: string;
  databaseFile: string;
  logFile: string;
  /** What the start script printed so far (stdout and stderr), as a person at the terminal reads it. */
  output(): string;
  stop(): Promise<void>;
}

const root = join(import.meta.dirname, '..', '..');

/**
 * What the e2e run's Kassas set over the defaults below (the bench's timed checkout keeps the shipped settings): the
 * proof of work at a tenth of its default cost (the server's tests run it at a hundredth:
 * packages/server/src/testing/config.ts). Every payment, card save, sign-up and sign-in of the run solves one, in
 * Chromium's workers or in the spec's Node, and the e2e run is bound by the 2 cores' CPU; no spec's subject is the cost
 * (the server's tests check that the shop alert and a failing client raise it).
 */
export const suiteEnv: Readonly<Record<string, string>> = { BOTCHECK_MAX_COUNTER: '2000' };

/**
 * `env`: more of the server's variables (a bot-check provider, ...), over the run's defaults. `from`: another checkout
 * of the repository to start instead (the bench's `--before`). The e2e run starts this repository's Kassas from
 * `scripts/start.ts` bundled once for the run (`KASSA_START_BUNDLE`, built by support/global-setup.ts with
 * scripts/start-bundle.ts), refused if a bundled source file changed since; without it (the bench), under tsx.
 * `asNpmStart`: through `npm start`'s own command (scripts/bootstrap.mjs, then tsx), for the test of its terminal.
 */
export async function startProduct(
  env: Record<string, string> = {},
  from: string = root,
  { asNpmStart = false } = {},
): Promise<RunningProduct> {
  const bundle = from === root && !asNpmStart ? process.env.KASSA_START_BUNDLE : undefined;
  const stale = bundle === undefined ? [] : staleInputs(bundle);
  if (stale.length > 0) {
    throw new Error(`Kassa's start bundle is older than ${stale.join(', ')}: run the specs again to bundle the code as it is`);
  }
  const dataDir = mkdtempSync(join(tmpdir(), 'kassa-e2e-'));
  const databaseFile = join(dataDir, 'kassa.sqlite');
  const logFile = join(dataDir, 'server.log');
  const start = asNpmStart
    ? [join(from, 'scripts', 'bootstrap.mjs'), 'start']
    : bundle === undefined
      ? ['--import', 'tsx', join(from, 'scripts', 'start.ts')]
      : [bundle];
  const child = spawn(process.execPath, start, {
    cwd: from,
    // Debug: the log file holds every request line too, so the audit checks those for card data as well. The terminal
    // (read by shop.spec's test of it, on a Kassa of its own) stays at info: pretty-printing a line per request cost a
    // Kassa about a third more CPU on light requests (4,000: 6.6 s instead of 4.3 to 5.3), and this runner kept them all.
    env: {
      ...process.env,
      PORT: '0',
      SANDBOX_PORT: '0',
      SANDBOX_TEST_CONTROLS: '1',
      // Card-only, as a fresh provider sandbox account (npm start turns the wallets and 3-D Secure on for the demo):
      // the card specs open on the card form; the wallet and 3-D Secure specs turn them on (support/sandbox-settings.ts).
      SANDBOX_WALLETS: 'none',
      SANDBOX_THREE_D_SECURE: '0',
      DATABASE_URL: databaseFile,
      LOG_FILE: logFile,
      LOG_LEVEL: 'debug',
      LOG_TERMINAL_LEVEL: 'info',
      // Every spec pays from 127.0.0.1: the per-IP velocity rules are sized for one shopper, not a test suite.
      VELOCITY_LIMIT_FACTOR: '50',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const record = (chunk: Buffer) => {
    output += chunk.toString();
  };
  child.stdout?.on('data', record);
  child.stderr?.on('data', record);
  const { shopUrl, sandboxUrl } = await waitForUrls(child, () => output);
  return {
    shopUrl,
    webDist: env.WEB_DIST ?? webDist(from),
    sandboxUrl,
    databaseFile,
    logFile,
    output: () => output,
    stop: () =>
      new Promise((resolve) => {
        // 'close': the process has ended and its output is read to the end.
        if (child.exitCode !== null) return resolve();
        child.once('close', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}

function waitForUrls(child: ChildProcess, printed: () => string): Promise<{ shopUrl: string; sandboxUrl: string }> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(new Error(`Kassa did not start within 120 s:\n${printed()}`)), 120_000);
    // Once ready, the output is no longer searched: searching the whole output again for each line a Kassa prints costs
    // the runner CPU that grows with the square of its length.
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.stderr?.off('data', onData);
      child.off('exit', onExit);
    };
    const fail = (error: Error) => {
      done();
      child.kill('SIGTERM');
      reject(error);
    };
    const onData = () => {
      const output = printed();
      const shop = /Shop:\s+(\S+?)\/?\s*$/m.exec(output);
      const sandbox = /Sandbox gateway:\s+(http\S+)/.exec(output);
      if (shop?.[1] && sandbox?.[1]) {
        done();
        resolve({ shopUrl: shop[1], sandboxUrl: sandbox[1] });
      }
    };
    const onExit = (code: number | null) => fail(new Error(`Kassa exited with ${code} before it was ready:\n${printed()}`));
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', onExit);
  });
}
