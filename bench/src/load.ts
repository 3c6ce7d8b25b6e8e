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

/**
 * A closed loop: `connections` workers, each sending its next request as soon as the previous one is answered, until
 * `total` requests were sent or `maxMs` passed. Each request's index is handed to `send`, so it can spend the
 * prepared item of that index. Latency is the time from sending to the whole answer.
 */
export async function closedLoop(options: {
  connections: number;
  total: number;
  maxMs?: number;
  send: Send;
}): Promise<LoadResult> {
  const { connections, total, send } = options;
  const deadline = performance.now() + (options.maxMs ?? Number.POSITIVE_INFINITY);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < total && performance.now() < deadline) {
      const index = next;
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
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  return {
    connections,
    ok: latencies.length,
    failures,
    seconds,
    perSecond: latencies.length / seconds,
    p50Ms: percentile(latencies, 0.5),
    p99Ms: percentile(latencies, 0.99),
  };
}

/** The nearest-rank percentile of sorted values (0 when there are none). */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
}

/** Runs `measure` and the CPU time each of `processes` used meanwhile, per completed item. */
export async function withCpu<T extends { ok: number }>(
  processes: Record<string, () => number>,
  measure: () => Promise<T>,
): Promise<T & { cpuMsPerItem: Record<string, number> }> {
  const before = Object.fromEntries(Object.entries(processes).map(([name, cpu]) => [name, cpu()]));
  const result = await measure();
  const cpuMsPerItem = Object.fromEntries(
    Object.entries(processes).map(([name, cpu]) => [name, result.ok === 0 ? 0 : (cpu() - (before[name] ?? 0)) / result.ok]),
  );
  return { ...result, cpuMsPerItem };
}
