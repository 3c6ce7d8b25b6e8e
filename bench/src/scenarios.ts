import braintree from 'braintree';
import { Pool } from 'undici';
import { closedLoop, loadRun, withCpu } from './load.ts';
import { postgresCpuMs } from './processes.ts';
import type { LoadResult, Part, PartedRow } from './load.ts';
import { cardTokenizer, paymentRequest, preparePayments } from './prepare.ts';
import { profiled } from './profile.ts';
import type { ProfileSummary } from './profile.ts';
import type { RunningHelloWorld, RunningKassa, RunningSandbox } from './stack.ts';

/** One measured row of the report. */
export interface Measurement extends LoadResult {
  scenario: string;
  /** CPU milliseconds each process used per completed request (`bench` is this process: the load and the SDK). */
  cpuMsPerItem: Record<string, number>;
  /** With `--profile`: where each server process spent the measured requests. */
  profiles?: Array<{ name: string; summary: ProfileSummary }>;
  /** A row measured in parts interleaved with another's (the SDK's rows, load.ts interleaved): each part's figures. */
  parts?: Part[];
}

export interface RunSize {
  /** Requests measured per row (after the warm-up). */
  items: number;
  warmup: number;
  /** The hello-world runs by time instead. */
  helloWorldMs: number;
  /** Profile Kassa's servers and the sandbox during the measured payments (their `.cpuprofile` files go here). */
  profileDir?: string;
}

const benchCpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/** The ceiling of the HTTP stack: GET / of a Fastify hello-world. */
export async function helloWorld(server: RunningHelloWorld, connections: number, size: RunSize): Promise<Measurement> {
  const pool = new Pool(server.url, { connections });
  const send = async (): Promise<string | null> => {
    const response = await pool.request({ method: 'GET', path: '/' });
    await response.body.text();
    return response.statusCode === 200 ? null : `status ${response.statusCode}`;
  };
  try {
    await closedLoop({ connections, total: Number.POSITIVE_INFINITY, maxMs: Math.min(1000, size.helloWorldMs), send });
    const result = await withCpu({ 'hello-world': server.process.cpuMs, bench: benchCpuMs }, () =>
      closedLoop({ connections, total: Number.POSITIVE_INFINITY, maxMs: size.helloWorldMs, send }),
    );
    return { scenario: 'Fastify hello-world', ...result };
  } finally {
    await pool.close();
  }
}

/** The rows of the official SDK alone, by the call they make (report.ts reads them by these names). */
export const SDK_ROWS = {
  sale: 'SDK transaction.sale alone',
  find: 'SDK paymentMethodNonce.find alone',
} as const;

/**
 * The official SDK straight to the sandbox, one call per prepared nonce: `sale` (`transaction.sale`) is the ceiling of
 * any server that charges through the SDK here; `find` (`paymentMethodNonce.find`, which reads a nonce without using
 * it) is the second gateway call of each Kassa payment, made for the card rules before the sale (the server README,
 * "Velocity rules"): what it costs the server and the sandbox. Resolves once the nonces are made and the warm-up sent,
 * to the row, measured in parts (load.ts interleaved) from the nonce after the warm-up's.
 */
export async function readySdkAlone(
  sandbox: RunningSandbox,
  call: keyof typeof SDK_ROWS,
  connections: number,
  size: RunSize,
): Promise<PartedRow> {
  const { host, port, merchantId, publicKey, privateKey } = sandbox.gateway;
  const gateway = new braintree.BraintreeGateway({
    environment: new braintree.Environment(host, String(port), `http://${host}`, false, host, String(port)),
    merchantId,
    publicKey,
    privateKey,
  });
  const pool = new Pool(sandbox.origin, { connections: 8 });
  const tokenize = cardTokenizer(pool, await gateway.clientToken.generate({}).then((r) => r.clientToken));
  const nonces: string[] = [];
  for (let n = 0; n < size.warmup + size.items; n += 1) nonces.push(await tokenize(n));
  await pool.close();
  const calls = {
    sale: async (nonce: string): Promise<string | null> => {
      const result = await gateway.transaction.sale({
        amount: '12.00',
        paymentMethodNonce: nonce,
        options: { submitForSettlement: true },
      });
      return result.success ? null : `sale refused: ${result.message}`;
    },
    find: async (nonce: string): Promise<string | null> => {
      const found = await gateway.paymentMethodNonce.find(nonce);
      return found.details?.bin === undefined ? 'no card details' : null;
    },
  };
  const send = (index: number) => calls[call](nonces[index] ?? '');
  await closedLoop({ connections, total: size.warmup, send });
  return {
    cpu: { sandbox: sandbox.process.cpuMs, bench: benchCpuMs },
    run: (from, count) => loadRun({ connections, total: count, from: size.warmup + from, send }),
  };
}

/** A Kassa row ready to measure: its payments prepared; `warmUp` sends the warm-up's payments. */
export interface ReadyPayments {
  /**
   * Rows measured at the same moment are warmed up at the same moment too (main.ts): warmed up one after the other,
   * the row prepared and warmed up first was the slower in quiet A/A pairs (issue 10, growth6).
   */
  warmUp(): Promise<void>;
  /**
   * Sends the measured payments. `alongside`: other rows are measured at the same moment (`--before`,
   * `--seed-payments`), so the bench process's CPU is not this row's alone: left out, and so is the sandbox's (and it
   * is not profiled) unless the row has a sandbox of its own (`ownSandbox`: `--seed-payments`).
   */
  measure(sharing: { alongside: boolean; ownSandbox: boolean }): Promise<Measurement>;
  close(): Promise<void>;
}

/** A row's PostgreSQL database: its server's postmaster and the database's name. */
export interface RowDatabase {
  postmasterPid: number;
  name: string;
}

/**
 * Payments end to end: orders, nonces and bot-check solutions prepared first, then each sent as the web app does
 * (`POST /api/orders/:id/payments` with its session cookie and an Idempotency-Key), spread over the instances. On
 * PostgreSQL (`database`), the database server's CPU is measured too: all of it (`postgres`), or, when other rows
 * share the server at the same moment, the processes serving this row's database (`postgres backends`).
 */
export async function readyPayments(
  scenario: string,
  instances: RunningKassa[],
  sandbox: RunningSandbox,
  connections: number,
  size: RunSize,
  database?: RowDatabase,
): Promise<ReadyPayments> {
  const first = instances[0];
  if (first === undefined) throw new Error('no Kassa instance');
  const prepared = await preparePayments(
    first.url,
    sandbox.origin,
    size.warmup + size.items,
    `${scenario}-${connections}`.replace(/\W+/g, '-'),
  );
  const pools = instances.map((instance) => new Pool(instance.url, { connections: Math.ceil(connections / instances.length) }));
  const close = async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  };
  const pay =
    (offset: number) =>
    async (index: number): Promise<string | null> => {
      const payment = prepared[offset + index];
      const pool = pools[index % pools.length];
      if (payment === undefined || pool === undefined) return 'nothing prepared';
      const response = await pool.request({ method: 'POST', ...paymentRequest(payment) });
      const text = await response.body.text();
      return response.statusCode === 201 ? null : `status ${response.statusCode} ${text.slice(0, 120)}`;
    };
  return {
    close,
    warmUp: async () => {
      await closedLoop({ connections, total: size.warmup, send: pay(0) });
    },
    measure: async ({ alongside, ownSandbox }) => {
      const sandboxMeasured = !alongside || ownSandbox;
      const cpu: Record<string, () => number> = {};
      if (sandboxMeasured) cpu[sandbox.process.name] = sandbox.process.cpuMs;
      if (!alongside) cpu['bench'] = benchCpuMs;
      for (const instance of instances) cpu[instance.process.name] = instance.process.cpuMs;
      if (database !== undefined) {
        if (alongside) cpu['postgres backends'] = postgresCpuMs(database.postmasterPid, database.name);
        else cpu['postgres'] = postgresCpuMs(database.postmasterPid);
      }
      const measure = () => withCpu(cpu, () => closedLoop({ connections, total: size.items, send: pay(size.warmup) }));
      if (size.profileDir === undefined) return { scenario, ...(await measure()) };
      const profiledProcesses = instances.map((instance) => instance.process);
      if (sandboxMeasured) profiledProcesses.push(sandbox.process);
      const { result, profiles } = await profiled(profiledProcesses, size.profileDir, measure);
      return { scenario, ...result, profiles };
    },
  };
}
