import { cpus, loadavg } from 'node:os';
import type { Measurement } from './scenarios.ts';

export interface Report {
  startedAt: string;
  machine: { cpus: number; node: string; loadAverageAtStart: number[]; loadAverageAtEnd: number[] };
  options: Record<string, unknown>;
  rows: Array<Measurement & { ofSdkAlone: number | null; serverOwnCpuMs: number | null }>;
}

export function machineAtStart(): Report['machine'] {
  return { cpus: cpus().length, node: process.version, loadAverageAtStart: loadavg(), loadAverageAtEnd: [] };
}

/**
 * Adds to each Kassa row what the goals are stated in: its rate as a share of the SDK-alone rate at the same
 * concurrency, and its servers' CPU per payment less the SDK's own share (the bench process's CPU per sale when it ran
 * the SDK alone).
 */
export function withGoalFigures(rows: Measurement[]): Report['rows'] {
  return rows.map((row) => {
    const sdk = rows.find((other) => other.scenario.startsWith('SDK') && other.connections === row.connections);
    const kassaCpu = Object.entries(row.cpuMsPerItem)
      .filter(([name]) => name.startsWith('kassa'))
      .reduce((sum, [, ms]) => sum + ms, 0);
    const isKassa = row.scenario.startsWith('Kassa');
    return {
      ...row,
      ofSdkAlone: isKassa && sdk !== undefined && sdk.perSecond > 0 ? row.perSecond / sdk.perSecond : null,
      serverOwnCpuMs: isKassa && sdk !== undefined ? kassaCpu - (sdk.cpuMsPerItem['bench'] ?? 0) : null,
    };
  });
}

const fixed = (n: number, digits = 1): string => n.toFixed(digits);

export function formatTable(report: Report): string {
  const header = [
    'scenario',
    'conns',
    'per s',
    'p50 ms',
    'p99 ms',
    'of SDK',
    'server own CPU ms',
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
    Object.entries(row.cpuMsPerItem)
      .map(([name, ms]) => `${name} ${fixed(ms, 2)}`)
      .join(', '),
    String(Object.values(row.failures).reduce((sum, n) => sum + n, 0)),
  ]);
  const widths = header.map((title, i) => Math.max(title.length, ...lines.map((line) => line[i]?.length ?? 0)));
  const render = (cells: string[]): string =>
    cells.map((cell, i) => (i === 0 || i === 7 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0))).join('  ');
  const load = (values: number[]): string => values.map((v) => v.toFixed(2)).join(' ');
  return [
    `machine: ${report.machine.cpus} CPUs, Node ${report.machine.node}; load average (1, 5, 15 min) at start ${load(report.machine.loadAverageAtStart)}, at end ${load(report.machine.loadAverageAtEnd)}`,
    render(header),
    ...lines.map(render),
  ].join('\n');
}

export function failuresOf(report: Report): string[] {
  return report.rows.flatMap((row) =>
    Object.entries(row.failures).map(([what, n]) => `${row.scenario} (${row.connections}): ${n} x ${what}`),
  );
}
