import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { afterAll, beforeAll, inject } from 'vitest';
import type { FaultSpec } from '../../../sandbox/src/core/faults.ts';
import type { GatewayConfig } from '../config.ts';

export interface RunningSandbox {
  origin: string;
  gateway: Extract<GatewayConfig, { kind: 'custom' }>;
  stop(): Promise<void>;
}

const READY = 'KASSA_SANDBOX_READY ';

/**
 * The real sandbox gateway in its own process, as a real gateway runs apart from the server (the server never
 * imports it), started from the run's bundle of its main.ts (sandbox-global-setup.ts). It prints
 * `KASSA_SANDBOX_READY {json}` once listening.
 */
export async function startSandboxProcess({
  currency = 'EUR',
  timeoutMs = 60_000,
  env = {},
}: {
  currency?: string;
  timeoutMs?: number /** More of the sandbox's variables (`SANDBOX_WEBHOOK_URL`, ...). */;
  env?: Record<string, string>;
} = {}): Promise<RunningSandbox> {
  const child = spawn(process.execPath, [inject('sandboxMain')], {
    env: { ...process.env, SANDBOX_PORT: '0', SANDBOX_READY_JSON: '1', SANDBOX_CURRENCY: currency, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const ready = await new Promise<{
    origin: string;
    host: string;
    port: number;
    merchantId: string;
    publicKey: string;
    privateKey: string;
  }>((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => fail(new Error(`sandbox not ready after ${timeoutMs} ms\n${err}`)), timeoutMs);
    const fail = (error: Error): void => {
      clearTimeout(timer);
      child.kill('SIGKILL');
      reject(error);
    };
    child.stderr?.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const line = out.split('\n').find((l) => l.startsWith(READY));
      if (line === undefined) return;
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line.slice(READY.length)));
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.once('exit', (code) => fail(new Error(`sandbox exited with ${code}\n${err}`)));
  });
  return {
    origin: ready.origin,
    gateway: {
      kind: 'custom',
      host: ready.host,
      port: ready.port,
      ssl: false,
      merchantId: ready.merchantId,
      publicKey: ready.publicKey,
      privateKey: ready.privateKey,
    },
    stop: () => stopChild(child),
  };
}

/**
 * The sandbox of the calling test file, or `describe` block: one process started before its first test and stopped
 * after its last. A file's blocks share it, those of both engines included (`describe.each(ENGINES)`): a start costs
 * about 0.6 s of CPU, and what one block's tests leave at the gateway (customers, sales, its clock) is what the tests
 * of one block already leave for each other. Read only inside tests and hooks, once it is started.
 */
export function sandboxPerFile(options?: Parameters<typeof startSandboxProcess>[0]): RunningSandbox {
  let running: RunningSandbox | undefined;
  beforeAll(async () => {
    running = await startSandboxProcess(options);
  });
  afterAll(async () => {
    await running?.stop();
  });
  const started = (): RunningSandbox => {
    if (running === undefined) throw new Error('the sandbox is not started: read it inside a test or a hook');
    return running;
  };
  return {
    get origin() {
      return started().origin;
    },
    get gateway() {
      return started().gateway;
    },
    stop: () => started().stop(),
  };
}

/** The server's environment variables that point it at `gateway` (a server started as its own process). */
export function gatewayEnv(gateway: RunningSandbox['gateway']): Record<string, string> {
  return {
    GATEWAY_HOST: gateway.host,
    GATEWAY_PORT: String(gateway.port),
    GATEWAY_MERCHANT_ID: gateway.merchantId,
    GATEWAY_PUBLIC_KEY: gateway.publicKey,
    GATEWAY_PRIVATE_KEY: gateway.privateKey,
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

// The sandbox's TEST-ONLY fault rules (packages/sandbox README, "Fault injection"), for a sandbox started with
// `env: { SANDBOX_TEST_CONTROLS: '1' }`, made with ../../../sandbox/src/testing/faults-client.ts.

/** The next sale's connection dropped by the sandbox before it is processed: the server never hears an answer. */
export const DROP_NEXT_SALE: FaultSpec = {
  target: 'server_api',
  method: 'POST',
  path: '/transactions$',
  fault: { type: 'drop' },
};

/** The next card save's connection (`paymentMethod.create`, its verification) dropped the same way: no answer heard. */
export const DROP_NEXT_CARD_SAVE: FaultSpec = { ...DROP_NEXT_SALE, path: '/payment_methods$' };
