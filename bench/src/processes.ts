import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
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

export function cpuMsOf(pid: number): number {
  // Fields after the command name (which may hold spaces, so split after its closing parenthesis): utime is the
  // 14th field of the line, stime the 15th.
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1000) / TICKS_PER_SECOND;
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
