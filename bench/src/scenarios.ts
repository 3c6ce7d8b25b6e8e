import braintree from 'braintree';
import { Pool } from 'undici';
import { closedLoop, loadRun, withCpu } from './load.ts';
import { postgresCpuMs } from './processes.ts';
import type { LoadResult, Part, PartedRow, SdkRow, WarmedUp, WarmingRow, WarmUpPlan } from './load.ts';
import { cardTokenizer, paymentRequest, preparePayments } from './prepare.ts';
import type { PreparedPayment } from './prepare.ts';
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
  /** Its warm-up (load.ts warmUp): the requests sent before the measured ones, the CPU per request of each batch. */
  warmUp?: WarmedUp;
}

export interface RunSize {
  /** Requests measured per row (after the warm-up). */
  items: number;
  /** Each row's warm-up (load.ts warmUp): until its CPU per request is steady, or a fixed count (`--warmup N`). */
  warmup: WarmUpPlan;
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
 * "Velocity rules"): what it costs the server and the sandbox. Resolves to the row, warmed up (load.ts warmUp, each
 * batch's nonces made first), its measured calls' nonces made after the warm-up (`prepareMeasured`), then measured in
 * parts (load.ts warmedThenMeasured, interleaved).
 */
export async function readySdkAlone(
  sandbox: RunningSandbox,
  call: keyof typeof SDK_ROWS,
  connections: number,
  size: RunSize,
): Promise<SdkRow & PartedRow & { close(): Promise<void> }> {
  const { host, port, merchantId, publicKey, privateKey } = sandbox.gateway;
  const gateway = new braintree.BraintreeGateway({
    environment: new braintree.Environment(host, String(port), `http://${host}`, false, host, String(port)),
    merchantId,
    publicKey,
    privateKey,
  });
  const pool = new Pool(sandbox.origin, { connections: 8 });
  const tokenize = cardTokenizer(pool, await gateway.clientToken.generate({}).then((r) => r.clientToken));
  const tokenized = async (count: number): Promise<string[]> => {
    const from = cards;
    cards += count;
    const made: string[] = [];
    for (let n = from; n < cards; n += 1) made.push(await tokenize(n));
    return made;
  };
  let cards = 0;
  let measured: string[] = [];
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
  const sender = (nonces: string[]) => (index: number) => calls[call](nonces[index] ?? '');
  return {
    cpu: { sandbox: sandbox.process.cpuMs, bench: benchCpuMs },
    next: async (count) => {
      const send = sender(await tokenized(count));
      return () => loadRun({ connections, total: count, send });
    },
    prepareMeasured: async () => {
      measured = await tokenized(size.items);
    },
    run: (from, count) => loadRun({ connections, total: count, from, send: sender(measured) }),
    close: () => pool.close(),
  };
}

/**
 * A Kassa row: warmed up (load.ts warmUp), then measured, each batch's payments prepared just before it. Rows measured
 * at the same moment are warmed up in step and at the same moment too (main.ts): warmed up one after the other, the row
 * prepared and warmed up first was the slower in quiet A/A pairs (issue 10, growth6).
 */
export interface ReadyPayments extends WarmingRow {
  /**
   * Prepares the measured payments and resolves to their sending. Prepared before the warm-up, 3,000-5,000 orders
   * before, they cost the server about a fifth more CPU than the warm-up's last batches (issue 10, steady).
   */
  measured(): Promise<() => Promise<Measurement>>;
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
 * `sharing.alongside`: other rows are measured at the same moment (`--before`, `--seed-payments`), so the bench
 * process's CPU is not this row's alone: left out, and so is the sandbox's (and it is not profiled) unless the row has
 * a sandbox of its own (`ownSandbox`: `--seed-payments`).
 */
export async function readyPayments(
  scenario: string,
  instances: RunningKassa[],
  sandbox: RunningSandbox,
  connections: number,
  size: RunSize,
  sharing: { alongside: boolean; ownSandbox: boolean },
  database?: RowDatabase,
): Promise<ReadyPayments> {
  const first = instances[0];
  if (first === undefined) throw new Error('no Kassa instance');
  const runId = `${scenario}-${connections}`.replace(/\W+/g, '-');
  let preparedCount = 0;
  const prepare = async (count: number) => {
    const from = preparedCount;
    preparedCount += count;
    return preparePayments(first.url, sandbox.origin, count, runId, from);
  };
  const pools = instances.map((instance) => new Pool(instance.url, { connections: Math.ceil(connections / instances.length) }));
  const close = async () => {
    await Promise.all(pools.map((pool) => pool.close()));
  };
  const pay =
    (prepared: PreparedPayment[]) =>
    async (index: number): Promise<string | null> => {
      const payment = prepared[index];
      const pool = pools[index % pools.length];
      if (payment === undefined || pool === undefined) return 'nothing prepared';
      const response = await pool.request({ method: 'POST', ...paymentRequest(payment) });
      const text = await response.body.text();
      return response.statusCode === 201 ? null : `status ${response.statusCode} ${text.slice(0, 120)}`;
    };
  const { alongside, ownSandbox } = sharing;
  const sandboxMeasured = !alongside || ownSandbox;
  const cpu: Record<string, () => number> = {};
  if (sandboxMeasured) cpu[sandbox.process.name] = sandbox.process.cpuMs;
  if (!alongside) cpu['bench'] = benchCpuMs;
  for (const instance of instances) cpu[instance.process.name] = instance.process.cpuMs;
  if (database !== undefined) {
    if (alongside) cpu['postgres backends'] = postgresCpuMs(database.postmasterPid, database.name);
    else cpu['postgres'] = postgresCpuMs(database.postmasterPid);
  }
  return {
    cpu,
    close,
    next: async (count) => {
      const send = pay(await prepare(count));
      return () => loadRun({ connections, total: count, send });
    },
    measured: async () => {
      const send = pay(await prepare(size.items));
      const measure = () => withCpu(cpu, () => closedLoop({ connections, total: size.items, send }));
      return async () => {
        if (size.profileDir === undefined) return { scenario, ...(await measure()) };
        const profiledProcesses = instances.map((instance) => instance.process);
        if (sandboxMeasured) profiledProcesses.push(sandbox.process);
        const { result, profiles } = await profiled(profiledProcesses, size.profileDir, measure);
        return { scenario, ...result, profiles };
      };
    },
  };
}
