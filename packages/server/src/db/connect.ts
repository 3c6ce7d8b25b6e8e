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
  // PostgreSQL keeps its statistics itself (autovacuum); SQLite is told to (openSqlite).
  const { db, optimize } =
    config.engine === 'sqlite' ? openSqlite(config.file) : { db: openPostgres(config.url), optimize: null };
  try {
    await migrate(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  if (optimize === null) return { db, engine: config.engine, close: () => db.destroy() };
  optimize();
  const timer = setInterval(optimize, SQLITE_OPTIMIZE_INTERVAL_MS);
  timer.unref();
  return {
    db,
    engine: config.engine,
    close: () => {
      clearInterval(timer);
      return db.destroy();
    },
  };
}

/** How often SQLite refreshes its table statistics while the server runs (a shop's tables grow). */
const SQLITE_OPTIMIZE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * SQLite, and its statistics kept fresh: without them its planner guesses, and with 100,000 payments it picked an
 * amount index and sorted (0.7 s for a page of the dashboard instead of 30 ms: src/admin/payments.scale.test.ts).
 * `PRAGMA optimize` (SQLite's advice for long-lived connections: at open, then now and then) analyzes the tables that
 * need it, each on a sample (`analysis_limit`), in milliseconds.
 */
function openSqlite(file: string): { db: Db; optimize: () => void } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  // WAL: readers do not block the writer; busy_timeout: a second process waits instead of failing at once.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('analysis_limit = 1000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
  return { db, optimize: () => database.pragma('optimize = 0x10002') };
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
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}
