import { join } from 'node:path';
import { ROOT, startNodeProcess } from './processes.ts';
import type { BenchProcess } from './processes.ts';

export interface GatewayCredentials {
  host: string;
  port: number;
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

/** With a folder: the process gets the profiler that SIGUSR2 starts and stops (`profiler-preload.ts`). */
function profiling(profileDir: string | undefined): { nodeArgs: string[]; env: Record<string, string> } {
  if (profileDir === undefined) return { nodeArgs: [], env: {} };
  return { nodeArgs: ['--import', join(ROOT, 'bench/src/profiler-preload.ts')], env: { BENCH_PROFILE_DIR: profileDir } };
}

export interface RunningSandbox {
  process: BenchProcess;
  origin: string;
  gateway: GatewayCredentials;
}

/** Where the sandbox process `name` keeps its state. */
export function sandboxDataFile(dir: string, name: string): string {
  return join(dir, `${name}.sqlite`);
}

/**
 * The sandbox gateway in its own process, keeping its state in a file as `npm start` runs it (unless `inMemory`):
 * `sandboxDataFile(dir, name)`, which may already hold a state (`--seed-payments`).
 */
export async function startSandbox(
  dir: string,
  options: { inMemory?: boolean; profileDir?: string; name?: string } = {},
): Promise<RunningSandbox> {
  const name = options.name ?? 'sandbox';
  const child = await startNodeProcess({
    name,
    ...profiling(options.profileDir),
    entry: join(ROOT, 'packages/sandbox/src/main.ts'),
    env: {
      SANDBOX_PORT: '0',
      SANDBOX_READY_JSON: '1',
      SANDBOX_CURRENCY: 'EUR',
      ...(options.inMemory === true ? {} : { SANDBOX_DATA_FILE: sandboxDataFile(dir, name) }),
      ...profiling(options.profileDir).env,
    },
    logFile: join(dir, `${name}.log`),
    readyPrefix: 'KASSA_SANDBOX_READY ',
    timeoutMs: 60_000,
  });
  const ready = JSON.parse(child.ready) as GatewayCredentials & { origin: string };
  const { origin, ...gateway } = ready;
  return { process: child, origin, gateway };
}

export interface RunningKassa {
  process: BenchProcess;
  url: string;
}

/**
 * Kassa's server environment as the bench runs it, `npm start`'s but for the limits a benchmark from one address would
 * hit: the rate limit and velocity rules are raised, and the proof of work is made cheap to solve (its verification
 * costs the server the same whatever the difficulty) and long-lived, because the solutions are prepared before the run.
 */
export function kassaEnv(sandbox: RunningSandbox, databaseUrl: string): Record<string, string> {
  return {
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    GATEWAY_HOST: sandbox.gateway.host,
    GATEWAY_PORT: String(sandbox.gateway.port),
    GATEWAY_MERCHANT_ID: sandbox.gateway.merchantId,
    GATEWAY_PUBLIC_KEY: sandbox.gateway.publicKey,
    GATEWAY_PRIVATE_KEY: sandbox.gateway.privateKey,
    // The bench is the proxy in front: it names each shopper's address (prepare.ts clientAddress).
    TRUST_PROXY: 'loopback',
    BOTCHECK_MAX_COUNTER: '50',
    BOTCHECK_CHALLENGE_TTL_SECONDS: '3600',
    RATE_LIMIT_PAYMENTS_PER_MINUTE: '100000000',
    VELOCITY_LIMIT_FACTOR: '100000000',
  };
}

/** Kassa's server as `npm start` runs it (its own process, default logging to a file), with `kassaEnv`. */
export async function startKassa(
  dir: string,
  name: string,
  sandbox: RunningSandbox,
  databaseUrl: string,
  /** `root`: the checkout whose server runs (an earlier one, for --before). */
  options: { env?: Record<string, string>; profileDir?: string; root?: string } = {},
): Promise<RunningKassa> {
  const child = await startNodeProcess({
    name,
    ...profiling(options.profileDir),
    entry: join(options.root ?? ROOT, 'packages/server/src/main.ts'),
    env: { ...kassaEnv(sandbox, databaseUrl), ...profiling(options.profileDir).env, ...options.env },
    logFile: join(dir, `${name}.log`),
    readyPrefix: 'Kassa server listening on ',
    timeoutMs: 60_000,
  });
  return { process: child, url: child.ready };
}

export interface RunningHelloWorld {
  process: BenchProcess;
  url: string;
}

export async function startHelloWorld(dir: string): Promise<RunningHelloWorld> {
  const child = await startNodeProcess({
    name: 'hello-world',
    entry: join(ROOT, 'bench/src/hello-world.ts'),
    env: {},
    logFile: join(dir, 'hello-world.log'),
    readyPrefix: 'BENCH_HELLO_READY ',
  });
  return { process: child, url: child.ready };
}
