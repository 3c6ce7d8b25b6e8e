import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { PostgresAddress } from './postgres.ts';

const SERVER_PROCESS = fileURLToPath(new URL('./postgres-process.ts', import.meta.url));

/** The server process and the projects whose run uses it. */
interface SharedServer {
  address: Promise<PostgresAddress>;
  projects: number;
  stop(): Promise<void>;
}

/**
 * Where vitest's process keeps the server: each project loads its global setup files on its own, so module state
 * would give the server's and the bench's projects a server each (about 2.5 s of CPU to make and start).
 */
const SHARED = Symbol.for('kassa.testPostgres');
const holder = globalThis as { [SHARED]?: SharedServer };

/**
 * One PostgreSQL server for the whole test run, shared by every project that names this setup (the server's, the
 * bench's), every file and worker (each test still gets a database of its own): starting and stopping one per file
 * cost each file about 10 s under load. Stopped when the last of those projects is torn down.
 */
export default async function startSharedPostgres(project: TestProject): Promise<() => Promise<void>> {
  const server = (holder[SHARED] ??= startServerProcess());
  server.projects += 1;
  project.provide('testPostgres', await server.address);
  return async () => {
    server.projects -= 1;
    if (server.projects > 0) return;
    delete holder[SHARED];
    await server.stop();
  };
}

function startServerProcess(): SharedServer {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_PROCESS], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const address = Promise.race([
    once(createInterface({ input: child.stdout }), 'line'),
    exited.then(([code]) => Promise.reject(new Error(`the test PostgreSQL process exited with ${code}`))),
  ]).then(([line]) => JSON.parse(line as string) as PostgresAddress);
  return {
    address,
    projects: 0,
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}
