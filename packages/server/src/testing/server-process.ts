import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildStartBundle } from '../../../../scripts/start-bundle.ts';

const SERVER_MAIN = fileURLToPath(new URL('../main.ts', import.meta.url));
const REPOSITORY = fileURLToPath(new URL('../../../..', import.meta.url));
const LISTENING = 'Kassa server listening on ';

let bundled: Promise<string> | undefined;

/**
 * `src/main.ts` bundled once per test process, as the e2e run's Kassas start (scripts/start-bundle.ts): a start from it
 * costs about 1.1 s of CPU against 2.2 under tsx, and the crash test starts the server some 20 times per engine. In the
 * repository's .tmp, where its imports of packages find node_modules; removed when the process ends.
 */
function serverBundle(): Promise<string> {
  bundled ??= (async () => {
    mkdirSync(join(REPOSITORY, '.tmp'), { recursive: true });
    const folder = mkdtempSync(join(REPOSITORY, '.tmp', 'server-main-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const bundle = join(folder, 'main.mjs');
    await buildStartBundle(SERVER_MAIN, bundle);
    return bundle;
  })();
  return bundled;
}

/**
 * The server as `npm start` runs it, in its own process (`src/main.ts` from the environment, bundled), so a test can
 * kill it the hard way (`kill -9`: no shutdown hook runs, a write in flight is cut) and start it again on the same
 * database. Its output is appended to `logFile`.
 */
export class ServerProcess {
  readonly #env: Record<string, string>;
  readonly #logFile: string;
  #child: ChildProcess | undefined;

  constructor(env: Record<string, string>, logFile: string) {
    this.#env = env;
    this.#logFile = logFile;
  }

  /** Starts the server and resolves with its URL once it listens. */
  async start(timeoutMs = 60_000): Promise<string> {
    const child = spawn(process.execPath, [await serverBundle()], {
      env: { ...process.env, ...this.#env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.#child = child;
    const log = createWriteStream(this.#logFile, { flags: 'a' });
    child.stderr?.pipe(log);
    return new Promise((resolve, reject) => {
      let out = '';
      const timer = setTimeout(
        () => fail(new Error(`server not listening after ${timeoutMs} ms (log: ${this.#logFile})`)),
        timeoutMs,
      );
      const fail = (error: Error): void => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(error);
      };
      child.stdout?.on('data', (chunk: Buffer) => {
        log.write(chunk);
        out += chunk.toString();
        const line = out.split('\n').find((l) => l.startsWith(LISTENING));
        if (line === undefined) return;
        clearTimeout(timer);
        out = '';
        resolve(line.slice(LISTENING.length).trim());
      });
      child.once('exit', (code, signal) =>
        fail(new Error(`server exited (${code ?? signal}) before listening (log: ${this.#logFile})`)),
      );
    });
  }

  /** `kill -9`: resolves once the process is gone. */
  kill(): Promise<void> {
    return this.#stop('SIGKILL');
  }

  /** A clean stop (SIGTERM: the server closes its connections). */
  stop(): Promise<void> {
    return this.#stop('SIGTERM');
  }

  #stop(signal: NodeJS.Signals): Promise<void> {
    const child = this.#child;
    if (child === undefined || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }
}
