import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import type { PostgresAddress } from './postgres.ts';

const SERVER_PROCESS = fileURLToPath(new URL('./postgres-process.ts', import.meta.url));

/**
 * One PostgreSQL server for a project's whole test run (the server's, the bench's), shared by every file and worker
 * (each test still gets a database of its own): starting and stopping one per file cost each file about 10 s under load.
 */
export default async function startSharedPostgres(project: TestProject): Promise<() => Promise<void>> {
  const child = spawn(process.execPath, ['--import', 'tsx', SERVER_PROCESS], { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const [line] = (await Promise.race([
    once(createInterface({ input: child.stdout }), 'line'),
    exited.then(([code]) => Promise.reject(new Error(`the test PostgreSQL process exited with ${code}`))),
  ])) as [string];
  project.provide('testPostgres', JSON.parse(line) as PostgresAddress);
  return async () => {
    child.stdin.end();
    await exited;
  };
}
