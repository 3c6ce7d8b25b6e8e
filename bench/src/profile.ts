import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ROOT } from './processes.ts';
import type { BenchProcess } from './processes.ts';

/** The parts of V8's `.cpuprofile` (written by `node --cpu-prof`) the summary reads. */
interface CpuProfile {
  nodes: Array<{
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    hitCount?: number;
    children?: number[];
  }>;
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  file: string;
  totalMs: number;
  /** Self time by area: a dependency (`node_modules/<package>`), a folder of ours, Node's internals, or V8's. */
  byArea: Array<{ area: string; ms: number; share: number }>;
  /** The functions with the most self time. */
  topFunctions: Array<{ fn: string; ms: number; share: number }>;
  /**
   * Each sample given to the innermost function of ours on its stack (Kysely, SQLite, the SDK it called included):
   * which of our functions the time is spent for.
   */
  byOwnCaller: Array<{ fn: string; ms: number; share: number }>;
}

/** Which area a script belongs to: the package, our folder, or Node itself. */
function areaOf(url: string, functionName: string): string {
  if (url === '') return functionName.startsWith('(') ? functionName : '(native)';
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const path = url.replace(/^file:\/\//, '');
  const modules = path.lastIndexOf('/node_modules/');
  if (modules !== -1) {
    const [scope, name] = path.slice(modules + 14).split('/');
    return scope?.startsWith('@') === true ? `${scope}/${name}` : (scope ?? path);
  }
  const relative = path.startsWith(ROOT) ? path.slice(ROOT.length + 1) : path;
  return relative.split('/').slice(0, 4).join('/').replace(/\.ts$/, '');
}

/** A script of this repository's own packages (not a dependency, not Node). */
const isOwn = (url: string): boolean => url.startsWith('file://') && !url.includes('/node_modules/');

/** Sums a profile's samples by area and by function. Each sample is one sampling interval of self time. */
export function summarizeProfile(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const samples = profile.nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const msPerSample = samples === 0 ? 0 : (profile.endTime - profile.startTime) / 1000 / samples;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  const callers = new Map<string, number>();
  const parents = new Map<number, (typeof profile.nodes)[number]>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node);
  // Our scripts run through tsx, whose line numbers say little: the file names them.
  const nameOf = (node: (typeof profile.nodes)[number]): string =>
    `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(`file://${ROOT}/`, '')}`;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    areas.set(area, (areas.get(area) ?? 0) + hits);
    const fn = `${functionName || '(anonymous)'} ${area}:${lineNumber + 1}`;
    functions.set(fn, (functions.get(fn) ?? 0) + hits);
    let own: (typeof profile.nodes)[number] | undefined = node;
    while (own !== undefined && !isOwn(own.callFrame.url)) own = parents.get(own.id);
    const caller = own === undefined ? `(not ours) ${area}` : nameOf(own);
    callers.set(caller, (callers.get(caller) ?? 0) + hits);
  }
  const rank = <K extends string>(map: Map<string, number>, key: K, limit: number) =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(
        ([name, hits]) =>
          ({ [key]: name, ms: hits * msPerSample, share: hits / samples }) as { [P in K]: string } & {
            ms: number;
            share: number;
          },
      );
  return {
    file,
    totalMs: samples * msPerSample,
    byArea: rank(areas, 'area', top),
    topFunctions: rank(functions, 'fn', top),
    byOwnCaller: rank(callers, 'fn', top),
  };
}

/**
 * Profiles `process` while `measure` runs: SIGUSR2 starts and stops the profiler that `profiler-preload.ts` put in it,
 * which then writes `<pid>.cpuprofile` into `dir`.
 */
export async function profiled<T>(
  processes: BenchProcess[],
  dir: string,
  measure: () => Promise<T>,
): Promise<{ result: T; profiles: Array<{ name: string; summary: ProfileSummary }> }> {
  for (const child of processes) child.signal('SIGUSR2');
  const result = await measure();
  for (const child of processes) child.signal('SIGUSR2');
  const profiles = [];
  for (const child of processes) {
    const file = join(dir, `${child.pid}.cpuprofile`);
    const deadline = Date.now() + 30_000;
    while (!existsSync(file) && Date.now() < deadline) await sleep(100);
    profiles.push({ name: child.name, summary: summarizeProfile(file) });
    rmSync(file);
  }
  return { result, profiles };
}

export function formatProfile(name: string, summary: ProfileSummary): string {
  const pct = (share: number): string => `${(share * 100).toFixed(1).padStart(5)}%`;
  return [
    `CPU profile of ${name} (${(summary.totalMs / 1000).toFixed(1)} s sampled; self time):`,
    '  by area:',
    ...summary.byArea.map((row) => `    ${pct(row.share)}  ${row.area}`),
    '  by function:',
    ...summary.topFunctions.map((row) => `    ${pct(row.share)}  ${row.fn}`),
    '  by the innermost function of ours on the stack (what it called included):',
    ...summary.byOwnCaller.map((row) => `    ${pct(row.share)}  ${row.fn}`),
  ].join('\n');
}
