import { describe, expect, it } from 'vitest';
import type { CheckoutFigures, StuckRun } from './checkout.ts';
import { failuresOf, formatStuck, formatTable, growthOf, seededSuffix } from './report.ts';
import { SDK_ROWS } from './scenarios.ts';
import type { Report } from './report.ts';

/** A Kassa row as the bench measures it, with its goal figures. */
function row(
  scenario: string,
  perSecond: number,
  p99Ms: number,
  serverOwnCpuMs: number | null,
  cpuMsPerItem: Record<string, number> = {},
): Report['rows'][number] {
  return {
    scenario,
    connections: 16,
    ok: 600,
    failures: {},
    seconds: 600 / perSecond,
    perSecond,
    p50Ms: p99Ms / 2,
    p99Ms,
    cpuMsPerItem,
    ofSdkAlone: null,
    serverOwnCpuMs,
    cardLookupCpuMs: null,
  };
}

describe("the bench's growth figures (--seed-payments)", () => {
  const rows = [
    row('Kassa on SQLite', 100, 40, 6, { sandbox: 2, kassa: 8 }),
    row('Kassa on SQLite, 1,000,000 payments before', 85, 50, 6.3, { 'sandbox-seeded': 2.2, 'kassa-seeded': 8.3 }),
    row('Kassa on PostgreSQL', 50, 80, 10),
    row('Kassa on PostgreSQL, 1,000,000 payments before', 52, 76, null),
    // The SDK's rows, measured at the seeded sandbox too (main.ts names them so): the gateway's own growth.
    row(SDK_ROWS.sale, 700, 30, null, { sandbox: 1, bench: 1.3 }),
    row(`${SDK_ROWS.sale}${seededSuffix(1_000_000)}`, 665, 33, null, { sandbox: 1.08, bench: 1.3 }),
  ];

  it('compares each seeded row with the same row on an empty database: rate, p99, server and sandbox CPU', () => {
    const growth = growthOf(rows);
    expect(growth.map((g) => [g.scenario, g.connections])).toEqual([
      ['Kassa on SQLite, 1,000,000 payments before', 16],
      ['Kassa on PostgreSQL, 1,000,000 payments before', 16],
      ['SDK transaction.sale alone, 1,000,000 payments before', 16],
    ]);
    expect(growth[0]?.slower).toBeCloseTo(0.15);
    expect(growth[0]?.p99Change).toBeCloseTo(0.25);
    expect(growth[0]?.serverOwnCpuChange).toBeCloseTo(0.05);
    expect(growth[0]?.sandboxCpuChange).toBeCloseTo(0.1);
    expect(growth[1]?.slower).toBeCloseTo(-0.04);
    expect(growth[1]?.serverOwnCpuChange).toBeNull();
    expect(growth[1]?.sandboxCpuChange).toBeNull();
    expect(growth[2]?.slower).toBeCloseTo(0.05);
    expect(growth[2]?.sandboxCpuChange).toBeCloseTo(0.08);
  });

  it('prints each against the goal of at most 10% slower', () => {
    const table = formatTable({
      startedAt: '',
      machine: { cpus: 2, node: 'v20', loadAverageAtStart: [1, 1, 1], loadAverageAtEnd: [1, 1, 1] },
      options: {},
      rows,
      growth: growthOf(rows),
    });
    expect(table).toContain(
      'growth: Kassa on SQLite, 1,000,000 payments before, 16 connections: 15% slower than on an empty database and sandbox, OVER the goal (at most 10% slower); p99 +25%, server own CPU per payment +5%, sandbox CPU per payment +10%',
    );
    expect(table).toContain(
      'growth: Kassa on PostgreSQL, 1,000,000 payments before, 16 connections: 4% faster than on an empty database and sandbox, within the goal (at most 10% slower); p99 -5%',
    );
    expect(table).toContain(
      'growth: SDK transaction.sale alone, 1,000,000 payments before, 16 connections: 5% slower than at an empty sandbox, within the goal (at most 10% slower); p99 +10%, sandbox CPU per payment +8%',
    );
  });
});

describe("the bench's stuck checkouts", () => {
  const stuck: StuckRun = {
    kassa: 'this',
    way: 'address',
    run: 3,
    waitedMs: 30_004,
    url: 'http://127.0.0.1:4000/checkout/ord_1',
    lookFailed: null,
    checkoutState: 'error',
    messages: ['All payment options failed to load.'],
    text: 'Checkout\nAll payment options failed to load.\nTry again',
    frames: [
      { name: 'kassa-field-number', url: 'http://localhost:4001/hosted-fields/frame.html#number', ready: false },
      { name: 'kassa-field-cvv', url: 'http://localhost:4001/hosted-fields/frame.html#cvv', ready: true },
    ],
    framesInDocument: ['kassa-field-number', 'kassa-field-cvv', 'kassa-field-expirationDate'],
    pendingRequests: [{ method: 'GET', url: 'http://localhost:4001/hosted-fields/frame.js', forMs: 29_950 }],
    consoleErrors: ['Failed to load resource (http://localhost:4001/hosted-fields/frame.js)'],
  };
  const report: Report = {
    startedAt: '',
    machine: { cpus: 2, node: 'v20', loadAverageAtStart: [1, 1, 1], loadAverageAtEnd: [1, 1, 1] },
    options: {},
    rows: [],
    checkout: { runs: 8, ...noFigures(), stuck: [stuck] },
  };

  it('prints each with its state, message, frames (ready or not, lost by Playwright), waiting requests and console errors', () => {
    expect(formatTable(report)).toContain(
      'checkout STUCK, run 3, opened by its address: no typeable card number after 30004 ms at http://127.0.0.1:4000/checkout/ord_1; data-state error; messages "All payment options failed to load."; frames kassa-field-number NOT ready, kassa-field-cvv ready; in the document but not Playwright\'s: kassa-field-expirationDate; requests waiting GET http://localhost:4001/hosted-fields/frame.js (29950 ms); console errors "Failed to load resource (http://localhost:4001/hosted-fields/frame.js)"',
    );
  });

  it('counts each as a failure of the run (its exit code)', () => {
    expect(failuresOf(report)).toEqual([formatStuck(stuck)]);
    expect(failuresOf({ ...report, checkout: { runs: 8, ...noFigures(), stuck: [] } })).toEqual([]);
  });
});

function noFigures(): CheckoutFigures {
  const none = { p50: 0, max: 0 };
  return {
    typeableMs: none,
    numberUsableMs: none,
    formUsableMs: none,
    payToReceiptMs: none,
    payToReceiptByPageMs: none,
    fromCart: { typeableMs: none, numberUsableMs: none, formUsableMs: none },
  };
}
