import { performance } from 'node:perf_hooks';

/** What one closed-loop run measured. */
export interface LoadResult {
  connections: number;
  /** Requests answered as expected. */
  ok: number;
  /** Requests answered otherwise, by what went wrong (`status 500`, an error's message). */
  failures: Record<string, number>;
  seconds: number;
  perSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** `send` resolves to null for an expected answer, else to a short label of what went wrong. */
export type Send = (index: number) => Promise<string | null>;

/** What a closed loop saw, before it is summed up: each expected answer's latency (ms), and how long it ran. */
export interface LoadRun {
  connections: number;
  latencies: number[];
  failures: Record<string, number>;
  seconds: number;
}

/**
 * A closed loop: `connections` workers, each sending its next request as soon as the previous one is answered, until
 * `total` requests were sent or `maxMs` passed. Each request's index (from `from`, 0 unless told) is handed to `send`,
 * so it can spend the prepared item of that index. Latency is the time from sending to the whole answer.
 */
export async function loadRun(options: {
  connections: number;
  total: number;
  from?: number;
  maxMs?: number;
  send: Send;
}): Promise<LoadRun> {
  const { connections, total, send } = options;
  const from = options.from ?? 0;
  const deadline = performance.now() + (options.maxMs ?? Number.POSITIVE_INFINITY);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total && performance.now() < deadline) {
      const index = from + next;
      next += 1;
      const sent = performance.now();
      let failure: string | null;
      try {
        failure = await send(index);
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      }
      if (failure === null) latencies.push(performance.now() - sent);
      else failures[failure] = (failures[failure] ?? 0) + 1;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: connections }, worker));
  return { connections, latencies, failures, seconds: (performance.now() - started) / 1000 };
}

/** Runs of the same row summed up as one: their answers, their failures, their time. */
export function summed(runs: LoadRun[]): LoadResult {
  const latencies = runs.flatMap((run) => run.latencies).sort((a, b) => a - b);
  const failures: Record<string, number> = {};
  for (const run of runs) for (const [what, n] of Object.entries(run.failures)) failures[what] = (failures[what] ?? 0) + n;
  const seconds = runs.reduce((sum, run) => sum + run.seconds, 0);
  return {
    connections: runs[0]?.connections ?? 0,
    ok: latencies.length,
    failures,
    seconds,
    perSecond: seconds === 0 ? 0 : latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** One closed loop (loadRun), summed up. */
export async function closedLoop(options: Parameters<typeof loadRun>[0]): Promise<LoadResult> {
  return summed([await loadRun(options)]);
}

/** The nearest-rank percentile of sorted values (0 when there are none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** Reads `processes`' CPU counters now; the function returned gives the milliseconds each used since. */
function cpuSince(processes: Record<string, () => number>): () => Record<string, number> {
  const before = Object.fromEntries(Object.entries(processes).map(([name, cpu]) => [name, cpu()]));
  return () => Object.fromEntries(Object.entries(processes).map(([name, cpu]) => [name, cpu() - (before[name] ?? 0)]));
}

/** Runs `measure`, and the CPU milliseconds each of `processes` used meanwhile. */
async function cpuUsed<T>(
  processes: Record<string, () => number>,
  measure: () => Promise<T>,
): Promise<{ result: T; usedMs: Record<string, number> }> {
  const used = cpuSince(processes);
  const result = await measure();
  return { result, usedMs: used() };
}

const perItem = (usedMs: Record<string, number>, ok: number): Record<string, number> =>
  Object.fromEntries(Object.entries(usedMs).map(([name, ms]) => [name, ok === 0 ? 0 : ms / ok]));

/** Runs `measure` and the CPU time each of `processes` used meanwhile, per completed item. */
export async function withCpu<T extends { ok: number }>(
  processes: Record<string, () => number>,
  measure: () => Promise<T>,
): Promise<T & { cpuMsPerItem: Record<string, number> }> {
  const { result, usedMs } = await cpuUsed(processes, measure);
  return { ...result, cpuMsPerItem: perItem(usedMs, result.ok) };
}

/** A row measured in parts (interleaved): the CPU counters read around each part, and a run of its items from `from`. */
export interface PartedRow {
  cpu: Record<string, () => number>;
  run: (from: number, count: number) => Promise<LoadRun>;
}

/** A part of a row measured in parts: where it came in the order of all the rows' parts (0 first), and what it measured. */
export interface Part {
  at: number;
  perSecond: number;
  cpuMsPerItem: Record<string, number>;
}

/**
 * Which row (by its index in `rows` rows) each part measures, in order: the Thue-Morse sequence (a part's row is the
 * sum of the digits of its position, in base `rows`, modulo `rows`): two rows in two parts each A, B, B, A, in four
 * A, B, B, A, B, A, A, B.
 */
export function thueMorseOrder(rows: number, parts: number): number[] {
  return Array.from({ length: rows * parts }, (_, position) => {
    if (rows === 1) return 0;
    let digits = 0;
    for (let rest = position; rest > 0; rest = Math.floor(rest / rows)) digits += rest % rows;
    return digits % rows;
  });
}

/**
 * Rows measured one after the other, each in `parts` parts of its `items`, the parts in the Thue-Morse order
 * (thueMorseOrder), each row's figures from its parts together. Measured whole, one row after the other, the row
 * measured first was the slower whichever sandbox it charged at (issue 10, growth5 and sdkwarm): whatever drifts along
 * the run then weighs on the rows alike, in full when it drifts in a straight line (two parts) or a parabola (four).
 */
export async function interleaved(
  rows: PartedRow[],
  items: number,
  parts: number,
): Promise<Array<LoadResult & { cpuMsPerItem: Record<string, number>; parts: Part[] }>> {
  const measured = rows.map(() => ({ runs: [] as LoadRun[], usedMs: {} as Record<string, number>, parts: [] as Part[] }));
  for (const [at, index] of thueMorseOrder(rows.length, parts).entries()) {
    const row = rows[index];
    const into = measured[index];
    if (row === undefined || into === undefined) throw new Error('no such row');
    const part = into.runs.length;
    const from = Math.floor((part * items) / parts);
    const { result: run, usedMs } = await cpuUsed(row.cpu, () => row.run(from, Math.floor(((part + 1) * items) / parts) - from));
    for (const [name, ms] of Object.entries(usedMs)) into.usedMs[name] = (into.usedMs[name] ?? 0) + ms;
    into.runs.push(run);
    into.parts.push({ at, perSecond: summed([run]).perSecond, cpuMsPerItem: perItem(usedMs, run.latencies.length) });
  }
  return measured.map(({ runs, usedMs, parts: rowParts }) => {
    const result = summed(runs);
    return { ...result, cpuMsPerItem: perItem(usedMs, result.ok), parts: rowParts };
  });
}

/**
 * How a row is warmed up: batches of `batch` requests, at least `least` requests, then until its CPU per request is
 * steady (isSteady) or `cap` requests were sent. A fixed warm-up of N (`--warmup N`) is one batch of N, least and cap N.
 */
export interface WarmUpPlan {
  batch: number;
  least: number;
  cap: number;
}

/**
 * The warm-up of every row unless `--warmup N` fixes it: batches of 500, at least 3,000, then until steady, at most
 * 5,000 requests. After 300 payments V8 was still compiling Kassa's code: about 1 ms of CPU per payment of its worker
 * threads that a server which has run a while does not pay (`npm run payment-cpu`, 0.97 ms after 300, 0.22 after
 * 4,300), and the SDK's client in the bench process fell from 2.62 to 1.24 ms per sale along a run's parts (issue 10,
 * growth6). At least 3,000 because a rise of the machine's load makes a batch dearer, which the rule alone took for
 * a steady state: stopped at 3,500, the first measured batch still cost 5.47 ms a payment, the next 3.63 (steady).
 */
export const STEADY_WARM_UP: WarmUpPlan = { batch: 500, least: 3000, cap: 5000 };

/** `--warmup N` (the bench's and payment-cpu's): N requests in one batch instead of the steady warm-up; none if not given. */
export function fixedWarmUp(option: string | undefined): WarmUpPlan | undefined {
  if (option === undefined) return undefined;
  const count = Number(option);
  if (!Number.isInteger(count) || count < 0) throw new Error('--warmup takes a whole number');
  return { batch: count, least: count, cap: count };
}

/** A batch's CPU per request this much below the cheapest before it is still a fall (a server still being optimised). */
const STEADY_TOLERANCE = 0.05;

/**
 * Whether a row's CPU per request, batch by batch, has stopped falling: neither of its last two batches was more than
 * STEADY_TOLERANCE cheaper than the cheapest batch before them. Two, not one: on the shared machine one batch's CPU
 * moves 10% either way, and one dearer batch would end a warm-up still falling (issue 10, steady: 6.59, 6.00, 4.95,
 * 4.53, 4.12, 3.59, 4.26, 3.89, 3.77, 3.40, 2.90 ms per payment in batches of 400).
 */
export function isSteady(costs: number[]): boolean {
  if (costs.length < 3) return false;
  const cheapestBefore = Math.min(...costs.slice(0, -2));
  return Math.min(...costs.slice(-2)) >= cheapestBefore * (1 - STEADY_TOLERANCE);
}

/** A row to warm up: its CPU counters (as measured), and its next `count` warm-up requests readied, then sent. */
export interface WarmingRow {
  cpu: Record<string, () => number>;
  /** Readies the next `count` warm-up requests (what they need made: not counted) and resolves to their sending. */
  next: (count: number) => Promise<() => Promise<LoadRun>>;
}

/** What a row's warm-up did: the requests sent, each batch's CPU per request (its counters summed), whether steady. */
export interface WarmedUp {
  requests: number;
  cpuMsPerItem: number[];
  /**
   * Each batch's CPU per request by counter (process), as the measured requests' are given: which process a batch
   * dearer or cheaper than the measured requests spent it in (bench/FINDINGS.md, "What remains", the steady entry).
   */
  byProcess: Array<Record<string, number>>;
  steady: boolean;
}

/**
 * Warms the rows up in step, batch after batch, until every one is steady (isSteady) after the plan's least, or its cap
 * is reached, so
 * rows measured side by side have had the same warm-up. `together`: each round's batches are sent at the same moment
 * (rows whose counters are theirs alone: Kassa's servers); otherwise one after the other (the SDK's rows, whose CPU is
 * the bench process's).
 */
export async function warmUp(rows: WarmingRow[], plan: WarmUpPlan, together: boolean): Promise<WarmedUp[]> {
  const costs = rows.map(() => [] as number[]);
  const byProcess = rows.map(() => [] as Array<Record<string, number>>);
  let sent = 0;
  while (sent < plan.cap && (sent < plan.least || !costs.every(isSteady))) {
    const count = Math.min(plan.batch, plan.cap - sent);
    const sends: Array<() => Promise<LoadRun>> = [];
    for (const row of rows) sends.push(await row.next(count));
    const batch = async (i: number, used: () => Record<string, number>, send: () => Promise<LoadRun>) => {
      const { latencies } = await send();
      const cpu = perItem(used(), latencies.length);
      byProcess[i]?.push(cpu);
      costs[i]?.push(Object.values(cpu).reduce((sum, ms) => sum + ms, 0));
    };
    if (together) {
      const used = rows.map((row) => cpuSince(row.cpu));
      await Promise.all(sends.map((send, i) => batch(i, used[i] ?? (() => ({})), send)));
    } else {
      for (const [i, send] of sends.entries()) await batch(i, cpuSince(rows[i]?.cpu ?? {}), send);
    }
    sent += count;
  }
  return costs.map((cpuMsPerItem, i) => ({
    requests: sent,
    cpuMsPerItem,
    byProcess: byProcess[i] ?? [],
    steady: isSteady(cpuMsPerItem),
  }));
}

/** A row of the SDK alone: warmed up, then its measured requests prepared, then measured (warmedThenMeasured). */
export interface SdkRow extends WarmingRow {
  /** Readies the measured requests (their nonces: made now, not counted). */
  prepareMeasured: () => Promise<void>;
}

/**
 * The SDK's rows warmed up one after the other (warmUp), then their measured requests prepared, then measured by
 * `measure` (one result a row: the bench's rows in parts, interleaved; payment-cpu's calls one at a time, by thread):
 * prepared after the warm-up, as Kassa's measured payments are (scenarios.ts readyPayments). Made before it, the
 * measured nonces had been pushed out of the sandbox's record cache (the 2,000 records read last) by the warm-up's
 * 3,000-5,000 sales, where Kassa's were in it: each measured sale read its nonce from the sandbox's file.
 */
export async function warmedThenMeasured<Measured>(
  rows: SdkRow[],
  plan: WarmUpPlan,
  measure: () => Promise<Measured[]>,
): Promise<Array<Measured & { warmUp?: WarmedUp }>> {
  const warmed = await warmUp(rows, plan, false);
  for (const row of rows) await row.prepareMeasured();
  return (await measure()).map((row, i) => ({ ...row, warmUp: warmed[i] }));
}
