import type { DatabaseConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { startTestPostgres } from './postgres.ts';
import type { TestPostgres } from './postgres.ts';
import { tempSqliteFile } from './sqlite.ts';

/** Both engines the server supports, for `describe.each`: the same tests must pass on each. */
export interface TestEngine {
  name: 'sqlite' | 'postgres';
  /** Starts what the engine needs (once per file). */
  setup(): Promise<void>;
  /** A fresh, migrated database. */
  open(): Promise<{ config: DatabaseConfig; handle: DatabaseHandle; cleanup(): Promise<void> }>;
  teardown(): Promise<void>;
}

export function sqliteEngine(): TestEngine {
  return {
    name: 'sqlite',
    async setup() {},
    async open() {
      const temp = tempSqliteFile();
      const config: DatabaseConfig = { engine: 'sqlite', file: temp.file };
      const handle = await openDatabase(config);
      return {
        config,
        handle,
        cleanup: async () => {
          await handle.close();
          temp.cleanup();
        },
      };
    },
    async teardown() {},
  };
}

export function postgresEngine(): TestEngine {
  let server: TestPostgres | undefined;
  return {
    name: 'postgres',
    async setup() {
      server = await startTestPostgres();
    },
    async open() {
      if (server === undefined) throw new Error('postgres engine not set up');
      const config: DatabaseConfig = { engine: 'postgres', url: await server.createDatabase() };
      const handle = await openDatabase(config);
      return { config, handle, cleanup: () => handle.close() };
    },
    async teardown() {
      await server?.stop();
    },
  };
}

export const ENGINES = [sqliteEngine, postgresEngine] as const;
