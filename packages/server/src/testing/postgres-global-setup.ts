import type { TestProject } from 'vitest/node';
import { type PostgresAddress, startTestPostgres } from './postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    testPostgres: PostgresAddress;
  }
}

/**
 * One PostgreSQL server for the server's whole test run, shared by every file and worker (each test still gets a
 * database of its own): starting and stopping one per file cost each file about 10 s under load.
 */
export default async function startSharedPostgres(project: TestProject): Promise<() => Promise<void>> {
  const server = await startTestPostgres({ durable: false });
  project.provide('testPostgres', server.address);
  return () => server.stop();
}
