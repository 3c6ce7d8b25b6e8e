import { mkdirSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { loadavg, tmpdir } from 'node:os';
import { constants, PerformanceObserver } from 'node:perf_hooks';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { Pool } from 'undici';
import { fixedWarmUp, loadRun, STEADY_WARM_UP, warmedThenMeasured, warmUp } from './load.ts';
import type { LoadRun, SdkRow, WarmedUp } from './load.ts';
import { cardTokenizer, paymentRequest, preparePayments } from './prepare.ts';
import type { PreparedPayment } from './prepare.ts';
import { countStatements, formatPostgresFigures, STATEMENT_SETTINGS } from './postgres-statements.ts';
import type { PostgresFigures } from './postgres-statements.ts';
import { postgresCpuMs, ROOT } from './processes.ts';
import { partsOfProfile } from './profile-parts.ts';
import type { CpuProfile, PartsBreakdown } from './profile-parts.ts';
import { kassaEnv, startSandbox } from './stack.ts';
import { startTestPostgres } from '../../packages/server/src/testing/postgres.ts';

// `npm run payment-cpu -w bench`: one payment's server-side work, measured in this process. Kassa's app is built here
// (as `npm start` builds it, on a SQLite file, logging to a file) against the real sandbox in its own process, and the
// prepared payments go through the app's route with `inject`: no socket, no load generator, no other server in the
// CPU figures, which are this process's (by thread, from /proc). The SDK's two calls are measured alone in the same
// process, and a CPU profile of a second batch splits the event loop's time into the payment's parts (profile-parts.ts).
// What `inject` leaves out is Node's HTTP server and its sockets (the hello-world row of `npm run bench`).

const { values } = parseArgs({
  options: {
    payments: { type: 'string', default: '1000' },
    /**
     * Payments (and SDK calls) before the measured ones, a fixed count; by default the bench's steady warm-up (load.ts
     * warmUp): batches until the process's CPU per payment stops falling.
     */
    warmup: { type: 'string' },
    /** Measured batches one after another (each of --payments): how the CPU per payment falls as V8 optimizes. */
    batches: { type: 'string', default: '1' },
    concurrency: { type: 'string', default: '16' },
    /** Another checkout whose server to measure (its own `cp -al` node_modules), as `npm run bench -- --before`. */
    server: { type: 'string' },
    /** The payments' CPU only: no SDK-alone calls, no profile (before/after runs). */
    'cpu-only': { type: 'boolean', default: false },
    /**
     * The SQLite database to run on, which it writes to (a copy of the seed cache's, say: growth measured by thread);
     * a new one in a temporary folder by default.
     */
    database: { type: 'string' },
    /**
     * On PostgreSQL instead: a server of its own, which flushes its commits as the bench's does, a new database in it;
     * its processes' CPU per payment is given as `postgres` beside this process's threads.
     */
    postgres: { type: 'boolean', default: false },
    /** With --postgres: what PostgreSQL did for the last batch's payments, by statement and by table (postgres-statements.ts). */
    statements: { type: 'boolean', default: false },
    out: { type: 'string' },
  },
});
const payments = Number(values.payments);
const concurrency = Number(values.concurrency);
const WARMUP = fixedWarmUp(values.warmup) ?? STEADY_WARM_UP;
const BATCHES = Number(values.batches);
const out = resolve(values.out ?? join(ROOT, '.tmp', 'payment-cpu.json'));
const serverRoot = resolve(values.server ?? ROOT);
const server = (await import(
  join(serverRoot, 'packages/server/src/index.ts')
)) as typeof import('../../packages/server/src/index.ts');
const { createBraintreeClient } = (await import(
  join(serverRoot, 'packages/server/src/gateway/braintree.ts')
)) as typeof import('../../packages/server/src/gateway/braintree.ts');
const { openDatabase } = (await import(
  join(serverRoot, 'packages/server/src/db/connect.ts')
)) as typeof import('../../packages/server/src/db/connect.ts');

// Threads there when this module runs: V8's four workers (the garbage collector's parallel and concurrent work,
// compiling: most of these threads' CPU), libuv's pool (the SDK's gunzip, the log's flushes: started by tsx's loading)
// and tsx's loader; those started later are worker threads (SQLite's checkpoints).
const THREADS_AT_START = new Set(readdirSync('/proc/self/task').map(Number));

/** This process's CPU time so far in ms: the event loop's (`main`), the threads there at the start, those started later. */
function threadCpuMs(): Map<string, number> {
  const byThread = new Map<string, number>();
  for (const tid of readdirSync('/proc/self/task').map(Number)) {
    try {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ms = ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
      const name = tid === process.pid ? 'main' : THREADS_AT_START.has(tid) ? 'threads at start' : 'later threads';
      byThread.set(name, (byThread.get(name) ?? 0) + ms);
    } catch {
      // ended between the listing and the read
    }
  }
  return byThread;
}

/** CPU ms per item by thread over `run`, in all, and the garbage collections meanwhile (per item, by kind, ms each). */
async function cpuPerItem(
  items: number,
  run: () => Promise<unknown>,
  postgresCpu?: () => number,
): Promise<Record<string, number>> {
  const collections: Record<string, number> = {};
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      const kind =
        ((entry as PerformanceEntry & { detail?: { kind?: number } }).detail?.kind ?? 0) === constants.NODE_PERFORMANCE_GC_MINOR
          ? 'scavenges'
          : 'other GCs';
      collections[kind] = (collections[kind] ?? 0) + 1 / items;
      collections[`${kind} ms`] = (collections[`${kind} ms`] ?? 0) + entry.duration / items;
    }
  });
  observer.observe({ entryTypes: ['gc'] });
  const before = threadCpuMs();
  const postgresBefore = postgresCpu?.();
  const total = process.cpuUsage();
  await run();
  const used = process.cpuUsage(total);
  observer.disconnect();
  const perItem: Record<string, number> = { all: (used.user + used.system) / 1000 / items };
  for (const [name, ms] of threadCpuMs()) perItem[name] = (ms - (before.get(name) ?? 0)) / items;
  if (postgresCpu !== undefined && postgresBefore !== undefined) perItem['postgres'] = (postgresCpu() - postgresBefore) / items;
  return { ...perItem, ...collections };
}

const processCpuMs = (): number => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

const dir = mkdtempSync(join(tmpdir(), 'kassa-payment-cpu-'));
const sandbox = await startSandbox(dir);
if (values.statements && !values.postgres) throw new Error('--statements counts PostgreSQL statements: add --postgres');
const postgres = values.postgres ? await startTestPostgres(values.statements ? { settings: STATEMENT_SETTINGS } : {}) : null;
const databaseUrl =
  postgres !== null
    ? await postgres.createDatabase()
    : values.database === undefined
      ? join(dir, 'kassa.sqlite')
      : resolve(values.database);
const postgresCpu = postgres === null ? undefined : postgresCpuMs(postgres.address.pid);
const config = server.loadConfig({ ...process.env, ...kassaEnv(sandbox, databaseUrl) });
// The server's log lines go to a file, written at once, as `npm start`'s output to a file is.
const logFd = openSync(join(dir, 'kassa.log'), 'w');
const logger = server.createLogger(config, { write: (line: string) => writeSync(logFd, line) });
// On PostgreSQL the pool keeps its idle connections, where the server's closes them after 10 s: --statements waits
// longer than that before the measured batch, which would otherwise open new connections, their backends' start in
// its figures, instead of running on those the warm-up opened (postgres-statements.ts).
const database = postgres === null ? undefined : await openDatabase(config.database, { postgresIdleTimeoutMs: 0 });
const { app } = await server.buildKassaApp(config, { seedDemoVault: true, logger, database });
try {
  // Listening for the preparation only (prepare.ts is a browser's HTTP); the measured payments go through `inject`.
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  // Each batch's payments are prepared just before it, warm-up and measured alike, under cards of their own.
  let preparedCount = 0;
  const prepare = async (count: number) => {
    const from = preparedCount;
    preparedCount += count;
    return preparePayments(url, sandbox.origin, count, 'payment-cpu', from);
  };
  const pay = (batch: PreparedPayment[]) => async (index: number) => {
    const payment = batch[index];
    if (payment === undefined) return 'nothing prepared';
    const { path, headers, body } = paymentRequest(payment);
    const response = await app.inject({ method: 'POST', url: path, headers, payload: body });
    return response.statusCode === 201 ? null : `status ${response.statusCode} ${response.body.slice(0, 120)}`;
  };
  const loop = async (batch: PreparedPayment[]): Promise<LoadRun> => {
    const run = await loadRun({ connections: concurrency, total: batch.length, send: pay(batch) });
    const failed = Object.entries(run.failures);
    if (failed.length > 0) throw new Error(`failed payments: ${JSON.stringify(Object.fromEntries(failed))}`);
    return run;
  };
  const [paymentsWarmUp] = await warmUp(
    [
      {
        cpu: { process: processCpuMs },
        next: async (count) => {
          const batch = await prepare(count);
          return () => loop(batch);
        },
      },
    ],
    WARMUP,
    false,
  );
  const loadBefore = loadavg();
  // The last batch's figures are the payment's; the earlier ones show how they fell.
  const earlierBatches: Array<Record<string, number>> = [];
  let paymentCpu: Record<string, number> = {};
  let statementsRead: ((payments: number) => Promise<PostgresFigures>) | undefined;
  for (let batch = 0; batch < BATCHES; batch += 1) {
    if (batch > 0) earlierBatches.push(paymentCpu);
    const prepared = await prepare(payments);
    if (values.statements && postgres !== null && batch === BATCHES - 1)
      statementsRead = await countStatements(databaseUrl, postgres.address.pid);
    paymentCpu = await cpuPerItem(payments, () => loop(prepared), postgresCpu);
  }
  const postgresFigures = await statementsRead?.(payments);
  const report: Report = {
    server: serverRoot,
    payments,
    concurrency,
    warmUps: paymentsWarmUp === undefined ? {} : { payments: paymentsWarmUp },
    load: { before: loadBefore, after: [] },
    earlierBatches,
    paymentCpu,
    ...(postgresFigures === undefined ? {} : { postgres: postgresFigures }),
  };
  let profile: unknown;
  if (!values['cpu-only']) {
    const { warmUps, ...sdk } = await sdkAlone();
    Object.assign(report, sdk);
    Object.assign(report.warmUps, warmUps);
    // A second batch of payments profiled: the shares of the event loop's busy samples, each part's ms the share of
    // the first batch's event-loop CPU (the profiler's own cost left out of the figures).
    const session = new Session();
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    const prepared = await prepare(payments);
    await session.post('Profiler.start');
    await loop(prepared);
    profile = (await session.post('Profiler.stop')).profile;
    session.disconnect();
    report.breakdown = partsOfProfile(profile as CpuProfile);
  }
  report.load.after = loadavg();
  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(report, null, 2)}\n`);
  let written = `JSON: ${out}`;
  if (profile !== undefined) {
    // The profile itself beside it, for Chrome's DevTools (Performance, load profile) or a closer look.
    const profileFile = out.replace(/(\.json)?$/, '.cpuprofile');
    writeFileSync(profileFile, JSON.stringify(profile));
    written += `, profile: ${profileFile}`;
  }
  process.stdout.write(`${formatReport(report)}\n${written}\n`);
} finally {
  await app.close();
  await database?.close();
  await sandbox.process.stop();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}

/**
 * The SDK's two calls alone, as a payment makes them, each with a nonce of its own: what of a payment's CPU is the
 * SDK's. Each call warmed up as the payments were (WARMUP), its batches' nonces made first, then its measured calls'
 * nonces made, after the warm-up as the bench's SDK rows' are (load.ts warmedThenMeasured).
 */
async function sdkAlone(): Promise<{
  findCpu: Record<string, number>;
  saleCpu: Record<string, number>;
  warmUps: { find?: WarmedUp; sale?: WarmedUp };
}> {
  if (config.gateway === null) throw new Error('no gateway configured');
  const gateway = createBraintreeClient(config.gateway);
  const tokens = new Pool(sandbox.origin, { connections: 8 });
  const tokenize = cardTokenizer(tokens, (await gateway.clientToken.generate({})).clientToken);
  let cards = 1_000_000;
  const tokenized = async (count: number): Promise<string[]> => {
    const made: string[] = [];
    for (const end = cards + count; cards < end; cards += 1) made.push(await tokenize(cards));
    return made;
  };
  try {
    const calls = (call: (nonce: string) => Promise<unknown>, nonces: string[]) =>
      loadRun({
        connections: concurrency,
        total: nonces.length,
        send: async (index) => {
          await call(nonces[index] ?? '');
          return null;
        },
      });
    const alone = async (call: (nonce: string) => Promise<unknown>) => {
      let measured: string[] = [];
      const row: SdkRow = {
        cpu: { process: processCpuMs },
        next: async (count) => {
          const nonces = await tokenized(count);
          return () => calls(call, nonces);
        },
        prepareMeasured: async () => {
          measured = await tokenized(payments);
        },
      };
      const [result] = await warmedThenMeasured([row], WARMUP, async () => [
        { cpu: await cpuPerItem(payments, () => calls(call, measured)) },
      ]);
      if (result === undefined) throw new Error('nothing measured');
      return result;
    };
    const find = await alone((nonce) => gateway.paymentMethodNonce.find(nonce));
    const sale = await alone((nonce) =>
      gateway.transaction.sale({ amount: '12.00', paymentMethodNonce: nonce, options: { submitForSettlement: true } }),
    );
    return { findCpu: find.cpu, saleCpu: sale.cpu, warmUps: { find: find.warmUp, sale: sale.warmUp } };
  } finally {
    await tokens.close();
  }
}

interface Report {
  server: string;
  payments: number;
  concurrency: number;
  /** What each warm-up sent before the measured calls (load.ts warmUp), and each of its batches' CPU per call. */
  warmUps: { payments?: WarmedUp; find?: WarmedUp; sale?: WarmedUp };
  load: { before: number[]; after: number[] };
  earlierBatches: Array<Record<string, number>>;
  paymentCpu: Record<string, number>;
  postgres?: PostgresFigures;
  findCpu?: Record<string, number>;
  saleCpu?: Record<string, number>;
  breakdown?: PartsBreakdown;
}

function formatReport({
  server: root,
  payments: count,
  concurrency: atOnce,
  warmUps,
  load,
  earlierBatches,
  paymentCpu,
  postgres,
  findCpu,
  saleCpu,
  breakdown,
}: Report): string {
  const ms = (value: number | undefined) => (value ?? 0).toFixed(3).padStart(7);
  const warmup = warmUps.payments?.requests ?? 0;
  const figures = (cpu: Record<string, number>) =>
    Object.entries(cpu)
      .filter(([name]) => name !== 'all')
      .map(([name, value]) => `${name} ${value.toFixed(3)}`)
      .join(', ');
  const averages = (loads: number[]) => loads.map((l) => l.toFixed(1)).join(' ');
  const all = paymentCpu['all'] ?? 0;
  const lines = [
    `${count} payments through the route of ${root} (inject) at ${atOnce} at once; load average ${averages(load.before)} -> ${averages(load.after)}`,
    ...Object.entries(warmUps).map(
      ([what, warmed]) =>
        `warm-up of the ${what}: ${warmed.requests} ${warmed.steady ? 'to a steady state' : 'not shown steady'}, ms in all by batch ${warmed.cpuMsPerItem.map((cpu) => cpu.toFixed(3)).join(', ')}`,
    ),
    ...earlierBatches.map(
      (cpu, i) => `batch ${i + 1}, after ${warmup + i * count} payments: ${ms(cpu['all'])} in all (${figures(cpu)})`,
    ),
    `CPU ms per payment${earlierBatches.length > 0 ? `, last batch, after ${warmup + earlierBatches.length * count} payments` : ''}: ${ms(all)} in all (${figures(paymentCpu)})`,
  ];
  if (postgres !== undefined) lines.push(formatPostgresFigures(postgres));
  if (findCpu !== undefined && saleCpu !== undefined) {
    const sale = saleCpu['all'] ?? 0;
    lines.push(
      `SDK alone, per call: paymentMethodNonce.find ${ms(findCpu['all'])} (${figures(findCpu)})`,
      `                     transaction.sale ${ms(sale)} (${figures(saleCpu)})`,
      `own CPU ms per payment (less the sale: the goal's figure): ${ms(all - sale)}; less the look-up too: ${ms(all - sale - (findCpu['all'] ?? 0))}`,
    );
  }
  if (breakdown !== undefined) {
    const main = paymentCpu['main'] ?? 0;
    const perSample = breakdown.busySamples === 0 ? 0 : main / breakdown.busySamples;
    lines.push(
      '',
      `The event loop's ${main.toFixed(3)} ms per payment by part (shares of a profiled batch's ${breakdown.busySamples} busy samples):`,
      ...breakdown.parts.map(
        (part) =>
          `  ${ms(part.samples * perSample)}  ${part.part}: ${Object.entries(part.byKind)
            .sort((a, b) => (b[1] ?? 0) - (a[1] ?? 0))
            .map(([kind, samples]) => `${kind} ${((samples ?? 0) * perSample).toFixed(3)}`)
            .join(', ')}`,
      ),
      'The database work (SQLite, Kysely, db/) by the function of ours it ran for (ms per payment, of it SQLite):',
      ...breakdown.statements.map(
        (statement) =>
          `  ${ms(statement.samples * perSample)}  (${(statement.sqlite * perSample).toFixed(3)})  ${statement.caller}`,
      ),
    );
  }
  return lines.join('\n');
}
