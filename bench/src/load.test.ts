import { describe, expect, it } from 'vitest';
import { fixedWarmUp, interleaved, isSteady, summed, thueMorseOrder, warmedThenMeasured, warmUp } from './load.ts';
import type { LoadRun, PartedRow, SdkRow, WarmingRow } from './load.ts';

describe("the SDK rows' order (load.ts interleaved)", () => {
  it('measures the rows in the Thue-Morse order: A, B, B, A in two parts, A, B, B, A, B, A, A, B in four', () => {
    expect(thueMorseOrder(2, 2)).toEqual([0, 1, 1, 0]);
    expect(thueMorseOrder(2, 4)).toEqual([0, 1, 1, 0, 1, 0, 0, 1]);
    expect(thueMorseOrder(1, 2)).toEqual([0, 0]);
    // Three rows: each once in every three parts.
    expect(thueMorseOrder(3, 2)).toEqual([0, 1, 2, 1, 2, 0]);
  });

  /**
   * Rows whose items all cost the same but for a drift along the run: an item costs more the fewer items were
   * measured before it (`drift` of their count, in ms), as a process still being optimised does. Each row counts its
   * own CPU (the time its items took) and sends the items it is given once each.
   */
  function drifting(rows: number, drift: (before: number) => number) {
    let measuredBefore = 0;
    const sent = Array.from({ length: rows }, () => [] as number[]);
    const parted = sent.map((items): PartedRow => {
      let cpuMs = 0;
      return {
        cpu: { row: () => cpuMs },
        run: async (from: number, count: number): Promise<LoadRun> => {
          const latencies: number[] = [];
          for (let item = from; item < from + count; item += 1) {
            const ms = 1 + drift(measuredBefore);
            measuredBefore += 1;
            cpuMs += ms;
            latencies.push(ms);
            items.push(item);
          }
          return { connections: 1, latencies, failures: {}, seconds: latencies.reduce((sum, ms) => sum + ms, 0) / 1000 };
        },
      };
    });
    return { parted, sent };
  }

  it("sends each row's items once each, and sums a row's parts: its rate, latencies and CPU from all of them", async () => {
    const { parted, sent } = drifting(2, () => 0);
    const measured = await interleaved(parted, 1001, 2);
    expect(sent[0]).toEqual(Array.from({ length: 1001 }, (_, item) => item));
    expect(sent[1]).toEqual(Array.from({ length: 1001 }, (_, item) => item));
    for (const row of measured) {
      expect(row.ok).toBe(1001);
      expect(row.perSecond).toBeCloseTo(1000);
      expect(row.cpuMsPerItem['row']).toBeCloseTo(1);
    }
    expect(measured.map((row) => row.parts.map((part) => part.at))).toEqual([
      [0, 3],
      [1, 2],
    ]);
  });

  it('gives two rows of the same cost the same figures under a drift in a straight line (two parts), a parabola (four)', async () => {
    const line = (before: number) => Math.max(0, 1 - before / 4000);
    const parabola = (before: number) => (1 - before / 2000) ** 2;
    const slower = (rows: Array<{ perSecond: number }>) => 1 - (rows[1]?.perSecond ?? 0) / (rows[0]?.perSecond ?? 1);
    // Measured whole, one after the other, the first row takes the drift: 'slower' well below 0.
    expect(slower(await interleaved(drifting(2, line).parted, 1000, 1))).toBeLessThan(-0.1);
    expect(slower(await interleaved(drifting(2, line).parted, 1000, 2))).toBeCloseTo(0, 3);
    expect(Math.abs(slower(await interleaved(drifting(2, parabola).parted, 1000, 2)))).toBeGreaterThan(0.01);
    expect(slower(await interleaved(drifting(2, parabola).parted, 1000, 4))).toBeCloseTo(0, 3);
  });

  it('sums runs: answers and failures of both, the rate over their time together, percentiles of all latencies', () => {
    const result = summed([
      { connections: 4, latencies: [1, 2, 3], failures: { 'status 500': 1 }, seconds: 1 },
      { connections: 4, latencies: [10, 20, 30, 40, 50], failures: { 'status 500': 2, timeout: 1 }, seconds: 3 },
    ]);
    expect(result).toEqual({
      connections: 4,
      ok: 8,
      failures: { 'status 500': 3, timeout: 1 },
      seconds: 4,
      perSecond: 2,
      p50Ms: 10,
      p99Ms: 50,
    });
  });
});

describe('the warm-up (load.ts warmUp)', () => {
  it('is steady once neither of the last two batches is 5% cheaper than the cheapest before them', () => {
    expect(isSteady([3, 3])).toBe(false);
    expect(isSteady([3, 3, 3])).toBe(true);
    expect(isSteady([6, 5, 4.5, 4])).toBe(false);
    expect(isSteady([4, 3, 3.1, 2.9])).toBe(true);
    // One dearer batch (the shared machine's noise) then a new low: still falling.
    expect(isSteady([4, 3, 3.5, 2.7])).toBe(false);
  });

  /**
   * A row whose requests cost what `cost` says of the requests it sent before (ms of CPU each, as a server V8 is still
   * optimising): its CPU counter, and every index it was given, to check that none is sent twice.
   */
  function optimising(cost: (before: number) => number) {
    let cpuMs = 0;
    let sentBefore = 0;
    const sizes: number[] = [];
    const row: WarmingRow = {
      cpu: { row: () => cpuMs },
      next: async (count) => {
        sizes.push(count);
        return async () => {
          const latencies: number[] = [];
          for (let i = 0; i < count; i += 1) {
            cpuMs += cost(sentBefore);
            sentBefore += 1;
            latencies.push(1);
          }
          return { connections: 1, latencies, failures: {}, seconds: count / 1000 };
        };
      },
    };
    return { row, sizes };
  }

  it('stops once the CPU per request stops falling, well before its cap, with each batch it measured', async () => {
    const { row, sizes } = optimising((before) => 1 + 3 * Math.exp(-before / 500));
    const [warmed] = await warmUp([row], { batch: 500, least: 0, cap: 20_000 }, false);
    expect(warmed?.steady).toBe(true);
    expect(warmed?.requests).toBeGreaterThan(1500);
    expect(warmed?.requests).toBeLessThan(5000);
    expect(sizes.every((size) => size === 500)).toBe(true);
    expect(warmed?.cpuMsPerItem).toHaveLength(sizes.length);
    // Its last batch within 10% of the steady cost (1 ms), the first's far above it.
    expect(warmed?.cpuMsPerItem.at(-1)).toBeLessThan(1.1);
    expect(warmed?.cpuMsPerItem[0]).toBeGreaterThan(2.5);
  });

  it('stops at its cap when the CPU per request keeps falling, not shown steady; a fixed count is one batch', async () => {
    const falling = optimising((before) => 10 - before / 1000);
    const [capped] = await warmUp([falling.row], { batch: 500, least: 0, cap: 3200 }, false);
    expect(capped).toMatchObject({ requests: 3200, steady: false });
    expect(falling.sizes).toEqual([500, 500, 500, 500, 500, 500, 200]);
    const fixed = optimising(() => 1);
    const [once] = await warmUp([fixed.row], { batch: 300, least: 300, cap: 300 }, false);
    expect(once).toMatchObject({ requests: 300, steady: false });
    expect(fixed.sizes).toEqual([300]);
  });

  it('sends at least its least even when steady before it', async () => {
    const flat = optimising(() => 2);
    const [warmed] = await warmUp([flat.row], { batch: 500, least: 3000, cap: 5000 }, false);
    expect(warmed).toMatchObject({ requests: 3000, steady: true });
    const [early] = await warmUp([optimising(() => 2).row], { batch: 500, least: 0, cap: 5000 }, false);
    expect(early?.requests).toBe(1500);
  });

  it('warms rows up in step until each is steady: the same count for all, each judged on its own CPU', async () => {
    const flat = optimising(() => 2);
    const slow = optimising((before) => 1 + 3 * Math.exp(-before / 500));
    const [flatRow, slowRow] = await warmUp([flat.row, slow.row], { batch: 500, least: 0, cap: 20_000 }, true);
    expect(flatRow?.requests).toBe(slowRow?.requests);
    expect(flat.sizes).toEqual(slow.sizes);
    expect(flatRow?.cpuMsPerItem.every((ms) => ms === 2)).toBe(true);
    expect(slowRow?.steady).toBe(true);
    expect(slowRow?.requests).toBeGreaterThan(1500);
  });
});

describe("the warm-up's CPU by process (load.ts warmUp byProcess)", () => {
  it("gives each batch's CPU per request by counter, whose sum is the batch's figure the rule judges", async () => {
    // Two processes: a server whose requests cost 3 ms then 2, a gateway's 1 ms each.
    let server = 0;
    let gateway = 0;
    let batches = 0;
    const row: WarmingRow = {
      cpu: { server: () => server, gateway: () => gateway },
      next: async (count) => async () => {
        batches += 1;
        server += count * (batches === 1 ? 3 : 2);
        gateway += count;
        return { connections: 1, latencies: Array<number>(count).fill(1), failures: {}, seconds: count / 1000 };
      },
    };
    const [warmed] = await warmUp([row], { batch: 100, least: 300, cap: 300 }, false);
    expect(warmed?.byProcess).toEqual([
      { server: 3, gateway: 1 },
      { server: 2, gateway: 1 },
      { server: 2, gateway: 1 },
    ]);
    expect(warmed?.cpuMsPerItem).toEqual([4, 3, 3]);
  });
});

describe('--warmup N (load.ts fixedWarmUp, the bench and payment-cpu)', () => {
  it('takes a whole number as one batch of that many, and leaves the steady warm-up when not given', () => {
    expect(fixedWarmUp('300')).toEqual({ batch: 300, least: 300, cap: 300 });
    expect(fixedWarmUp('0')).toEqual({ batch: 0, least: 0, cap: 0 });
    expect(fixedWarmUp(undefined)).toBeUndefined();
  });

  it('refuses anything but a whole number', () => {
    for (const option of ['many', '1.5', '-1']) expect(() => fixedWarmUp(option)).toThrow('--warmup takes a whole number');
  });
});

describe("the SDK rows' measured nonces (load.ts warmedThenMeasured)", () => {
  it("are made after the warm-up, as Kassa's measured payments are, so the sandbox serves both alike", async () => {
    const events: string[] = [];
    const row = (name: string): SdkRow & PartedRow => ({
      cpu: { [name]: () => 0 },
      next: async (count) => {
        events.push(`${name} warm-up nonces`);
        return async () => {
          events.push(`${name} warm-up`);
          return { connections: 1, latencies: Array<number>(count).fill(1), failures: {}, seconds: count / 1000 };
        };
      },
      prepareMeasured: async () => {
        events.push(`${name} measured nonces`);
      },
      run: async (_from, count) => {
        events.push(`${name} measured`);
        return { connections: 1, latencies: Array<number>(count).fill(1), failures: {}, seconds: count / 1000 };
      },
    });
    const rows = [row('a'), row('b')];
    const measured = await warmedThenMeasured(rows, { batch: 10, least: 10, cap: 10 }, () => interleaved(rows, 20, 1));
    expect(events).toEqual([
      'a warm-up nonces',
      'b warm-up nonces',
      'a warm-up',
      'b warm-up',
      'a measured nonces',
      'b measured nonces',
      'a measured',
      'b measured',
    ]);
    expect(measured.map((result) => result.warmUp?.requests)).toEqual([10, 10]);
  });
});
