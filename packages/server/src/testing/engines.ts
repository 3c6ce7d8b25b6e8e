import { copyFileSync } from 'node:fs';
import type { DatabaseConfig } from '../config.ts';
import { openDatabase } from '../db/connect.ts';
import type { DatabaseHandle } from '../db/connect.ts';
import { inject } from 'vitest';
import { connectTestPostgres } from './postgres.ts';
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

// Each test opens a fresh database: a copy of one migrated once per process (SQLite) or per server (PostgreSQL), so the
// migrations do not run again for every test. openDatabase finds the copy current in one query (db/connect.ts migrate).

/** A migrated SQLite file, made on first use and removed when the process ends. */
let sqliteTemplate: Promise<string> | undefined;

async function migratedSqliteFile(): Promise<string> {
  const temp = tempSqliteFile();
  process.once('exit', temp.cleanup);
  const handle = await openDatabase({ engine: 'sqlite', file: temp.file });
  await handle.close();
  return temp.file;
}

export function sqliteEngine(): TestEngine {
  return {
    name: 'sqlite',
    async setup() {},
    async open() {
      sqliteTemplate ??= migratedSqliteFile();
      const temp = tempSqliteFile();
      copyFileSync(await sqliteTemplate, temp.file);
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

/** A migrated PostgreSQL database, made on first use on the run's shared server and copied for each test. */
let postgresTemplate: Promise<string> | undefined;

export function postgresEngine(): TestEngine {
  let server: TestPostgres | undefined;
  return {
    name: 'postgres',
    async setup() {
      // One server for the whole run, started by the run's global setup (testing/postgres-global-setup.ts).
      server = connectTestPostgres(inject('testPostgres'));
    },
    async open() {
      if (server === undefined) throw new Error('postgres engine not set up');
      const running = server;
      postgresTemplate ??= (async () => {
        const url = await running.createDatabase();
        await (await openDatabase({ engine: 'postgres', url })).close();
        return url;
      })();
      const config: DatabaseConfig = {
        engine: 'postgres',
        url: await running.createDatabase({ template: await postgresTemplate }),
      };
      const handle = await openDatabase(config);
      // Dropped after the test: the server's files are in memory (postgres-process.ts), 9 MB a database.
      const cleanup = async (): Promise<void> => {
        await handle.close();
        await running.dropDatabase(config.url);
      };
      return { config, handle, cleanup };
    },
    async teardown() {},
  };
}

export const ENGINES = [sqliteEngine, postgresEngine] as const;
