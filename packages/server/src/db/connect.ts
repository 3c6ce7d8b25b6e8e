import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import type { SqliteDatabase as KyselySqliteDatabase } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { migrations } from './migrations.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

export interface DatabaseHandle {
  db: Db;
  engine: DatabaseConfig['engine'];
  close(): Promise<void>;
}

/** Opens the configured engine and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig): Promise<DatabaseHandle> {
  const db = config.engine === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url);
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  return { db, engine: config.engine, close: () => db.destroy() };
}

function openSqlite(file: string): Db {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  // WAL: readers do not block the writer; busy_timeout: a second process waits instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/** Distinct SQL texts kept prepared; past it the cache starts over (lists of varying length make new texts). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing (SQLite parsing and planning the text) cost more CPU than running
 * most of ours (issue 10's profile). The same text reuses its prepared statement. Safe because better-sqlite3 runs a
 * statement to completion before returning, and Kysely streams no query here (a streamed statement stays busy).
 */
function withStatementCache(database: SqliteDatabase.Database): KyselySqliteDatabase {
  const prepared = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sql: string) {
      let statement = prepared.get(sql);
      if (statement === undefined) {
        if (prepared.size >= STATEMENT_CACHE_SIZE) prepared.clear();
        statement = database.prepare(sql);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  // A connection dropped by the server (restart, admin shutdown) while idle or closing has no query to fail;
  // without a listener its 'error' event would crash the process. The pool opens a new one when needed.
  const ignore = (): void => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

export async function migrate(db: Db): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    throw new Error(`database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}
