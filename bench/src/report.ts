import { cpus, loadavg } from 'node:os';
import type { CheckoutBundleSizes } from '../../scripts/checkout-bundle.ts';
import { CARD_VIEW_BUDGET_BYTES, CARD_VIEW_GOAL_BYTES, kb } from '../../scripts/checkout-bundle.ts';
import type { CheckoutFigures, CheckoutTiming, StuckRun } from './checkout.ts';
import { SDK_ROWS } from './scenarios.ts';
import type { WarmedUp } from './load.ts';
import type { Measurement } from './scenarios.ts';

export interface Report {
  startedAt: string;
  machine: { cpus: number; node: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  options: Record<string, unknown>;
  rows: Array<Measurement & { ofSdkAlone: number | null; serverOwnCpuMs: number | null; cardLookupCpuMs: number | null }>;
  /**
   * With `--seed-payments N`: each row on a database and a sandbox holding N payments against the same row on empty
   * ones.
   */
  growth?: Growth[];
  /** With `--checkout N` (10 by default): the checkout in Chromium. */
  checkout?: CheckoutTiming;
  /** With `--checkout N`: the checkout's bundle, each chunk minified then gzip -9 (scripts/checkout-bundle.ts). */
  checkoutBundle?: CheckoutBundleSizes;
}

export function machineAtStart(): Report['machine'] {
  return { cpus: cpus().length, node: process.version, loadAverageAtStart: loadavg(), loadAverageAtEnd: [] };
}

/**
 * Adds to each Kassa row what the goals are stated in: its rate as a share of the SDK-alone rate at the same
 * concurrency, and its servers' CPU per payment less the SDK's own share (the bench process's CPU per sale when it ran
 * the SDK alone). The card lookup (`paymentMethodNonce.find` before the sale) is part of that own share; what it costs
 * is the bench process's CPU per find when it ran the find alone.
 */
export function withGoalFigures(rows: Measurement[]): Report['rows'] {
  const sdkRow = (scenario: string, connections: number): Measurement | undefined =>
    rows.find((other) => other.scenario === scenario && other.connections === connections);
  return rows.map((row) => {
    const sale = sdkRow(SDK_ROWS.sale, row.connections);
    const find = sdkRow(SDK_ROWS.find, row.connections);
    const kassaCpu = Object.entries(row.cpuMsPerItem)
      .filter(([name]) => name.startsWith('kassa'))
      .reduce((sum, [, ms]) => sum + ms, 0);
    const isKassa = row.scenario.startsWith('Kassa');
    return {
      ...row,
      ofSdkAlone: isKassa && sale !== undefined && sale.perSecond > 0 ? row.perSecond / sale.perSecond : null,
      serverOwnCpuMs: isKassa && sale !== undefined ? kassaCpu - (sale.cpuMsPerItem['bench'] ?? 0) : null,
      cardLookupCpuMs: isKassa && find !== undefined ? (find.cpuMsPerItem['bench'] ?? null) : null,
    };
  });
}

/** Issue 10's growth goal: with a million payments already in the database, payments at most 10% slower. */
export const GROWTH_GOAL_SLOWER = 0.1;

export interface Growth {
  /** The row on the seeded database (`Kassa on SQLite, 1,000,000 payments before`). */
  scenario: string;
  connections: number;
  /** How much lower its rate is than the empty database's, measured at the same moment (0.03: 3% fewer per second). */
  slower: number;
  /** Its p99 against the empty database's (0.05: 5% longer). */
  p99Change: number;
  /** Its servers' own CPU per payment against the empty database's, when both are known. */
  serverOwnCpuChange: number | null;
  /**
   * Its sandbox's CPU per payment against the empty database's row's sandbox, when each row had a sandbox of its own
   * (the seeded rows' holds as many payments).
   */
  sandboxCpuChange: number | null;
}

/** The CPU per payment of a row's sandbox processes (`sandbox`, `sandbox-seeded`), or null when not measured. */
function sandboxCpuMs(row: Measurement): number | null {
  const measured = Object.entries(row.cpuMsPerItem).filter(([name]) => name.startsWith('sandbox'));
  return measured.length === 0 ? null : measured.reduce((sum, [, ms]) => sum + ms, 0);
}

const SEEDED = /^(.*), [\d,]+ payments before$/;

/** What a row's scenario says when measured on a database and sandbox holding `payments` already (growthOf pairs it). */
export function seededSuffix(payments: number): string {
  return `, ${payments.toLocaleString('en')} payments before`;
}

/** Each row measured on a seeded database and sandbox (`…, N payments before`) against the same row on empty ones. */
export function growthOf(rows: Report['rows']): Growth[] {
  return rows.flatMap((row) => {
    const emptyScenario = SEEDED.exec(row.scenario)?.[1];
    const empty = rows.find((other) => other.scenario === emptyScenario && other.connections === row.connections);
    if (empty === undefined || empty.perSecond === 0 || empty.p99Ms === 0) return [];
    const cpu = row.serverOwnCpuMs !== null && empty.serverOwnCpuMs ? row.serverOwnCpuMs / empty.serverOwnCpuMs - 1 : null;
    const sandbox = sandboxCpuMs(row);
    const emptySandbox = sandboxCpuMs(empty);
    return [
      {
        scenario: row.scenario,
        connections: row.connections,
        slower: 1 - row.perSecond / empty.perSecond,
        p99Change: row.p99Ms / empty.p99Ms - 1,
        serverOwnCpuChange: cpu,
        sandboxCpuChange: sandbox !== null && emptySandbox ? sandbox / emptySandbox - 1 : null,
      },
    ];
  });
}

const fixed = (n: number, digits = 1): string => n.toFixed(digits);
const percent = (share: number): string => `${share >= 0 ? '+' : ''}${fixed(share * 100, 0)}%`;

function formatGrowth(growth: Growth): string {
  const verdict = growth.slower > GROWTH_GOAL_SLOWER ? 'OVER the goal' : 'within the goal';
  const cpu = growth.serverOwnCpuChange === null ? '' : `, server own CPU per payment ${percent(growth.serverOwnCpuChange)}`;
  const sandbox = growth.sandboxCpuChange === null ? '' : `, sandbox CPU per payment ${percent(growth.sandboxCpuChange)}`;
  const rate = `${fixed(Math.abs(growth.slower) * 100, 0)}% ${growth.slower >= 0 ? 'slower' : 'faster'}`;
  // The SDK's rows charge at the sandbox alone: no database of Kassa's in them.
  const sdkAlone = Object.values(SDK_ROWS).some((name) => growth.scenario.startsWith(name));
  const against = sdkAlone ? 'at an empty sandbox' : 'on an empty database and sandbox';
  return (
    `growth: ${growth.scenario}, ${growth.connections} connections: ${rate} than ${against}, ${verdict} ` +
    `(at most ${fixed(GROWTH_GOAL_SLOWER * 100, 0)}% slower); p99 ${percent(growth.p99Change)}${cpu}${sandbox}`
  );
}

/** A row's warm-up: how many requests it took, whether it reached a steady CPU per request, each batch's. */
export function formatWarmUp(row: Measurement, warmed: WarmedUp): string {
  const batches = warmed.cpuMsPerItem.map((ms) => fixed(ms, 2)).join(', ');
  // Not steady: stopped by its cap, or a fixed count (`--warmup N`, one batch) that the rule did not judge.
  const state = warmed.steady ? 'steady' : 'not shown steady';
  return `warm-up: ${row.scenario}, ${row.connections} connections: ${warmed.requests.toLocaleString('en')} requests, ${state}; CPU ms per request by batch ${batches}`;
}

export function formatTable(report: Report): string {
  const header = [
    'scenario',
    'conns',
    'per s',
    'p50 ms',
    'p99 ms',
    'of SDK',
    'server own CPU ms',
    'of it card lookup',
    'CPU ms per request by process',
    'failed',
  ];
  const lines = report.rows.map((row) => [
    row.scenario,
    String(row.connections),
    fixed(row.perSecond, 0),
    fixed(row.p50Ms),
    fixed(row.p99Ms),
    row.ofSdkAlone === null ? '' : `${fixed(row.ofSdkAlone * 100, 0)}%`,
    row.serverOwnCpuMs === null ? '' : fixed(row.serverOwnCpuMs, 2),
    row.cardLookupCpuMs === null ? '' : fixed(row.cardLookupCpuMs, 2),
    Object.entries(row.cpuMsPerItem)
      .map(([name, ms]) => `${name} ${fixed(ms, 2)}`)
      .join(', '),
    String(Object.values(row.failures).reduce((sum, n) => sum + n, 0)),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]?.length ?? 0)));
  const render = (cells: string[]): string =>
    cells.map((cell, i) => (i === 0 || i === 8 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const load = (values: number[]): string => values.map((v) => v.toFixed(2)).join(' ');
  const checkout = report.checkout;
  const checkoutFigures = (name: string, figures: CheckoutFigures): string =>
    `${name}, ${checkout?.runs} runs (p50 / max): navigation to a typeable card field ${fixed(figures.typeableMs.p50, 0)} / ${fixed(figures.typeableMs.max, 0)} ms (by the page's clock: the number field usable ${fixed(figures.numberUsableMs.p50, 0)} / ${fixed(figures.numberUsableMs.max, 0)} ms, the whole form ${fixed(figures.formUsableMs.p50, 0)} / ${fixed(figures.formUsableMs.max, 0)} ms), Pay to receipt ${fixed(figures.payToReceiptMs.p50, 0)} / ${fixed(figures.payToReceiptMs.max, 0)} ms (by the page's clock ${fixed(figures.payToReceiptByPageMs.p50, 0)} / ${fixed(figures.payToReceiptByPageMs.max, 0)} ms); from the cart's "Go to checkout" to a typeable card field ${fixed(figures.fromCart.typeableMs.p50, 0)} / ${fixed(figures.fromCart.typeableMs.max, 0)} ms (by the page's clock: the number field usable ${fixed(figures.fromCart.numberUsableMs.p50, 0)} / ${fixed(figures.fromCart.numberUsableMs.max, 0)} ms, the whole form ${fixed(figures.fromCart.formUsableMs.p50, 0)} / ${fixed(figures.fromCart.formUsableMs.max, 0)} ms)`;
  const checkoutLine =
    checkout === undefined
      ? []
      : [
          ...(checkout.before === undefined ? [] : [checkoutFigures('checkout before in Chromium', checkout.before)]),
          checkoutFigures('checkout in Chromium', checkout),
          ...checkout.stuck.map(formatStuck),
        ];
  return [
    `machine: ${report.machine.cpus} CPUs, Node ${report.machine.node}; load average (1, 5, 15 min) at start ${load(report.machine.loadAverageAtStart)}, at end ${load(report.machine.loadAverageAtEnd)}`,
    render(header),
    ...lines.map(render),
    ...report.rows.flatMap((row) => (row.warmUp === undefined ? [] : [formatWarmUp(row, row.warmUp)])),
    ...(report.growth ?? []).map(formatGrowth),
    ...checkoutLine,
    ...(report.checkoutBundle === undefined ? [] : formatBundle(report.checkoutBundle)),
  ].join('\n');
}

/** The checkout's bundle: the card view's total against its goal and budget, then each chunk. */
function formatBundle(sizes: CheckoutBundleSizes): string[] {
  const width = Math.max(...sizes.chunks.map((chunk) => chunk.file.length), 'hosted card field frame script'.length);
  const line = (name: string, bytes: number, loaded: string) => `  ${name.padEnd(width)}  ${kb(bytes).padStart(8)}  ${loaded}`;
  return [
    `checkout bundle (minified, gzip -9): card view ${kb(sizes.cardViewGzipBytes)} without React (${sizes.cardViewGzipBytes} B: ` +
      `checkout ${kb(sizes.checkoutGzipBytes)} + card field frame ${kb(sizes.frameScriptGzipBytes)}; goal ` +
      `${kb(CARD_VIEW_GOAL_BYTES)}, budget ${kb(CARD_VIEW_BUDGET_BYTES)}), ${kb(sizes.cardViewWithReactGzipBytes)} with React ` +
      '(the plain-page drop-in, React and ReactDOM bundled in, and the frame)',
    line('hosted card field frame script', sizes.frameScriptGzipBytes, 'with the card view (gateway origin)'),
    line('card field frame rules', sizes.validateScriptGzipBytes, 'on demand (gateway origin), as each frame takes typing'),
    line('number frame tokenization', sizes.tokenizeScriptGzipBytes, 'on demand (gateway origin), once the shopper types'),
    ...sizes.chunks.map((chunk) => line(chunk.file, chunk.gzipBytes, chunk.loaded)),
  ];
}

export function failuresOf(report: Report): string[] {
  return [
    ...report.rows.flatMap((row) =>
      Object.entries(row.failures).map(([what, n]) => `${row.scenario} (${row.connections}): ${n} x ${what}`),
    ),
    ...(report.checkout?.stuck ?? []).map(formatStuck),
  ];
}

/**
 * A checkout run stuck before a typeable card number, in one line: what tells a checkout that failed (its state and
 * message, the frame that did not report ready, the request still waiting) from a page that never drew it or a frame
 * Playwright lost (in the document, not among Playwright's frames). The whole record is in the JSON (`checkout.stuck`).
 */
export function formatStuck(stuck: StuckRun): string {
  const way = stuck.way === 'address' ? 'opened by its address' : "from the cart's Go to checkout";
  const frames = stuck.frames.map((frame) => `${frame.name || frame.url} ${frame.ready ? 'ready' : 'NOT ready'}`);
  const lost = stuck.framesInDocument.filter((name) => !stuck.frames.some((frame) => frame.name === name || frame.url === name));
  const waiting = stuck.pendingRequests.map((request) => `${request.method} ${request.url} (${request.forMs} ms)`);
  return [
    `checkout STUCK${stuck.kassa === 'before' ? ' (checkout before)' : ''}, run ${stuck.run}, ${way}: no typeable card number after ${stuck.waitedMs} ms at ${stuck.url}`,
    stuck.lookFailed === null
      ? `data-state ${stuck.checkoutState ?? 'none (no checkout in the page)'}`
      : `the page's document not read (${stuck.lookFailed})`,
    `messages ${stuck.messages.length === 0 ? 'none' : stuck.messages.map((message) => JSON.stringify(message)).join(', ')}`,
    `frames ${frames.length === 0 ? 'none' : frames.join(', ')}`,
    ...(lost.length === 0 ? [] : [`in the document but not Playwright's: ${lost.join(', ')}`]),
    `requests waiting ${waiting.length === 0 ? 'none' : waiting.join(', ')}`,
    `console errors ${stuck.consoleErrors.length === 0 ? 'none' : stuck.consoleErrors.map((error) => JSON.stringify(error)).join(', ')}`,
  ].join('; ');
}
