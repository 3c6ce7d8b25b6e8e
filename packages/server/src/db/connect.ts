import { mkdirSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import { DEFAULT_MIGRATION_TABLE, Kysely, Migrator, PostgresAdapter, PostgresDialect, SqliteDialect, sql } from 'kysely';
import type { SqliteDatabase as KyselySqliteDatabase, PostgresPool, PostgresPoolClient } from 'kysely';
import pg from 'pg';
import type { DatabaseConfig } from '../config.ts';
import { startCheckpointer } from './checkpointer.ts';
import { migrations } from './migrations.ts';
import { postgresPipeline, registerPostgresPipeline } from './postgres-pipeline.ts';
import { runNamedStatement, statementName } from './postgres-query.ts';
import { isPreparedText } from './prepared.ts';
import { commitBatch, registerSqliteAtOnce } from './sqlite-at-once.ts';
import { KassaSqliteDialect } from './sqlite-dialect.ts';
import type { Database } from './schema.ts';

export type Db = Kysely<Database>;

/** Whether a database (or a transaction of it) is PostgreSQL: for the few statements written for one engine. */
export function isPostgres(db: Pick<Db, 'getExecutor'>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

export interface DatabaseHandle {
  db: Db;
  engine: DatabaseConfig['engine'];
  close(): Promise<void>;
}

export interface OpenOptions {
  /**
   * SQLite: copy the write-ahead log into the database from a worker thread (checkpointer.ts), as the server does,
   * instead of in the commits of the event loop (SQLite's automatic checkpoint). Off for short-lived databases (tests,
   * scripts): the worker thread costs a start.
   */
  checkpointInWorker?: boolean;
  /**
   * PostgreSQL: how long a pooled connection may stay idle before it is closed, in ms (0: never); pg's 10 s if not
   * given, as the server opens it. For measurements that pause longer between batches (`payment-cpu --statements`).
   */
  postgresIdleTimeoutMs?: number;
}

/** Opens the configured engine and brings its schema up to date. */
export async function openDatabase(config: DatabaseConfig, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (config.engine === 'postgres') {
    // PostgreSQL keeps its statistics itself (autovacuum); SQLite is told to (openSqlite).
    const { db, close } = openPostgres(config.url, options.postgresIdleTimeoutMs);
    await migrateOrClose(() => migrate(db), close);
    return { db, engine: config.engine, close };
  }
  const { db, optimize, closeLog } = openSqlite(config.file, options.checkpointInWorker === true);
  const close = async (): Promise<void> => {
    await closeLog();
    await db.destroy();
  };
  await migrateOrClose(() => migrateSqlite(db, config.file), close);
  optimize();
  const timer = setInterval(optimize, SQLITE_OPTIMIZE_INTERVAL_MS);
  timer.unref();
  return {
    db,
    engine: config.engine,
    close: () => {
      clearInterval(timer);
      return close();
    },
  };
}

async function migrateOrClose(migrateIt: () => Promise<void>, close: () => Promise<void>): Promise<void> {
  try {
    await migrateIt();
  } catch (error) {
    await close();
    throw error;
  }
}

/** How often SQLite refreshes its table statistics while the server runs (a shop's tables grow). */
const SQLITE_OPTIMIZE_INTERVAL_MS = 60 * 60 * 1000;

/**
 * SQLite, and its statistics kept fresh: without them its planner guesses, and with 100,000 payments it picked an
 * amount index and sorted (0.7 s for a page of the dashboard instead of 30 ms: src/admin/payments.scale.test.ts).
 * `PRAGMA optimize` (SQLite's advice for long-lived connections: at open, then now and then) analyzes the tables that
 * need it, each on a sample (`analysis_limit`), in milliseconds.
 */
function openSqlite(file: string, checkpointInWorker: boolean): { db: Db; optimize: () => void; closeLog: () => Promise<void> } {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const database = new SqliteDatabase(file);
  // busy_timeout: a second process waits instead of failing at once (first: turning a new file to WAL takes a lock).
  database.pragma('busy_timeout = 5000');
  // WAL: readers do not block the writer.
  database.pragma('journal_mode = WAL');
  // NORMAL: a commit is written to the log (so a killed process loses nothing: the system has it) but not flushed
  // to the disk; flushing every commit took 5 ms here, with the event loop stopped (better-sqlite3 is synchronous).
  // What must survive a power cut is flushed by syncWrites, off the event loop (README, "Durability").
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  database.pragma('analysis_limit = 1000');
  // MEMORY: a statement's temporary b-trees (a DISTINCT's, a RETURNING's) are not given a temporary file's pager each.
  // With the default, a statement of several distinct counts grew and shrank the heap twice a run (two `brk` calls) and
  // took five times as long as the same counts apart (issue 10, cpu11: the card rules' tallies, velocity.ts #tally).
  // The temporary b-trees then stay in memory however large: the server's queries are bounded by their indexes.
  database.pragma('temp_store = MEMORY');
  const statements = withStatementCache(database);
  // Whatever else uses the connection commits the turn's batch of compiled statements first (sqlite-at-once.ts):
  // Kysely's queries and transactions, the pragmas, the close.
  const afterBatch = <T>(work: () => T): T => {
    commitBatch(database);
    return work();
  };
  const db = new Kysely<Database>({
    dialect: new KassaSqliteDialect({
      database: {
        prepare: (text: string) => afterBatch(() => statements.prepare(text)),
        close: () => afterBatch(() => statements.close()),
      },
    }),
  });
  registerSqliteAtOnce(db, { database, prepare: statements.prepare });
  const flusher = walFlusher(`${file}-wal`);
  if (file !== ':memory:') walFlushers.set(db, flusher.flush);
  const checkpointer =
    checkpointInWorker && file !== ':memory:'
      ? startCheckpointer(file, (frames) => afterBatch(() => database.pragma(`wal_autocheckpoint = ${frames}`)))
      : null;
  const closeLog = async (): Promise<void> => {
    await checkpointer?.close();
    await flusher.close();
  };
  return { db, optimize: () => afterBatch(() => database.pragma('optimize = 0x10002')), closeLog };
}

/** Each SQLite database's log flusher (PostgreSQL flushes a commit itself, unless relaxed: prepared.ts). */
const walFlushers = new WeakMap<Db, () => Promise<void>>();

/**
 * Makes every write committed so far survive a power cut: a payment attempt is flushed before the gateway is asked to
 * charge, so no charge can be made that the database forgets. On PostgreSQL the attempt's own commit already flushed
 * it and every commit before it, relaxed ones included (prepared.ts); on SQLite (synchronous=NORMAL) the write-ahead log
 * is flushed to the disk.
 */
export function syncWrites(db: Db): Promise<void> {
  return walFlushers.get(db)?.() ?? Promise.resolve();
}

/**
 * Flushes SQLite's write-ahead log in the thread pool (fdatasync on a descriptor of its own: the flush covers the
 * file, whoever wrote it), so the event loop runs on meanwhile. Callers that come while a flush runs share the next
 * one (a group commit): one flush per burst of payments, not one each. Frames already copied into the database by a
 * checkpoint were flushed there by SQLite (it syncs the database after each checkpoint).
 */
function walFlusher(walFile: string): { flush: () => Promise<void>; close: () => Promise<void> } {
  let log: Promise<FileHandle> | null = null;
  let running: Promise<void> | null = null;
  let next: Promise<void> | null = null;
  const flush = (): Promise<void> => {
    log ??= open(walFile, 'r');
    const flushing = log
      .then((handle) => handle.datasync())
      .finally(() => {
        if (running === flushing) running = null;
      });
    running = flushing;
    return flushing;
  };
  return {
    flush: () => {
      if (running === null) return flush();
      // The running flush may have started before this caller's commit: it waits for the one after.
      next ??= running
        .catch(() => undefined)
        .then(() => {
          next = null;
          return flush();
        });
      return next;
    },
    close: async () => {
      await Promise.allSettled([running, next]);
      await (await log?.catch(() => null))?.close();
    },
  };
}

/** Distinct SQL texts kept prepared; past it the cache starts over (lists of varying length make new texts). */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing (SQLite parsing and planning the text) cost more CPU than running
 * most of ours (issue 10's profile). The same text reuses its prepared statement. Safe because better-sqlite3 runs a
 * statement to completion before returning, and Kysely streams no query here (a streamed statement stays busy).
 */
function withStatementCache(
  database: SqliteDatabase.Database,
): KyselySqliteDatabase & { prepare(sql: string): SqliteDatabase.Statement } {
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

function openPostgres(url: string, idleTimeoutMillis?: number): { db: Db; close: () => Promise<void> } {
  // pipeline: a query is written without waiting for the answer to the one before it (withNamedStatements' BEGIN).
  const pool = new pg.Pool({ connectionString: url, max: 10, pipeline: true, idleTimeoutMillis });
  // A connection dropped by the server (restart, admin shutdown) while idle or closing has no query to fail;
  // without a listener its 'error' event would crash the process. The pool opens a new one when needed.
  const ignore = (): void => {};
  pool.on('error', ignore);
  pool.on('connect', (client) => client.on('error', ignore));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: withNamedStatements(pool) }) });
  // The compiled reads and relaxed writes outside transactions share connections of their own (postgres-pipeline.ts).
  const pipeline = postgresPipeline({ connectionString: url });
  registerPostgresPipeline(db, pipeline);
  return {
    db,
    close: async () => {
      await pipeline.end();
      await db.destroy();
    },
  };
}

/**
 * The queries compiled once (prepared.ts) run as named prepared statements: each connection has PostgreSQL parse and
 * plan one the first time only. Other queries (the dashboard's, of many shapes) stay unnamed: a named statement lives
 * as long as its connection.
 */
function withNamedStatements(pool: pg.Pool): PostgresPool {
  const clients = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    let wrapped = clients.get(client);
    if (wrapped === undefined) {
      const send = (text: string, values: ReadonlyArray<unknown>) =>
        isPreparedText(text)
          ? runNamedStatement(client, statementName(text), text, [...values])
          : client.query(text, [...values]);
      // A transaction's BEGIN waits for its first statement and is written just before it, both answered in one round
      // trip instead of two. The statement's answer is given only once the BEGIN's came back without error.
      let beginDeferred = false;
      const query = (text: string, values: ReadonlyArray<unknown>) => {
        if (text === 'begin') {
          beginDeferred = true;
          return Promise.resolve({ command: 'BEGIN', rowCount: null, rows: [] });
        }
        if (!beginDeferred) return send(text, values);
        beginDeferred = false;
        return Promise.all([client.query('begin'), send(text, values)]).then(([, answer]) => answer);
      };
      // Kysely hands a cursor only to stream a query, which needs the dialect's `cursor` option: not given here.
      wrapped = { query: query as unknown as PostgresPoolClient['query'], release: () => client.release() };
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  return { connect: async () => wrap(await pool.connect()), end: () => pool.end() };
}

export async function migrate(db: Db): Promise<void> {
  if (await hasRunExactly(db, MIGRATION_NAMES)) return;
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error !== undefined || failed !== undefined) {
    throw new Error(
      `database migration ${failed?.migrationName ?? ''} failed: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

const MIGRATION_NAMES = Object.keys(migrations).sort();

/** How long an opener waits for another's migration of the same SQLite file before it gives up. */
const SQLITE_MIGRATION_WAIT_MS = 60_000;

/**
 * Migrates a SQLite file under SQLite's write lock. Kysely's migrator takes no lock on SQLite (its lock is a no-op)
 * and runs each statement on its own: two servers opening a new file at once both created its tables, one failing
 * with `table "accounts" already exists` (db.test.ts). Here the migration runs in one `BEGIN IMMEDIATE` transaction
 * on a connection of its own: a second opener waits for the first's commit, then finds the database current (or
 * nothing of a failed migration). The lock is tried without SQLite's busy wait, which would stop the event loop and
 * with it an opener of the same file in this process, and tried again every few milliseconds.
 */
async function migrateSqlite(db: Db, file: string): Promise<void> {
  if (file === ':memory:') return migrate(db);
  if (await hasRunExactly(db, MIGRATION_NAMES)) return;
  const connection = new SqliteDatabase(file, { timeout: 0 });
  connection.pragma('foreign_keys = ON');
  const locked = new Kysely<Database>({ dialect: new SqliteDialect({ database: connection }) });
  try {
    const deadline = Date.now() + SQLITE_MIGRATION_WAIT_MS;
    while (!tryBeginImmediate(connection)) {
      if (Date.now() > deadline) throw new Error(`database ${file} stayed locked by another migration`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await migrate(locked);
    connection.exec('COMMIT');
  } finally {
    if (connection.inTransaction) connection.exec('ROLLBACK');
    await locked.destroy();
  }
}

/** `BEGIN IMMEDIATE`: false while another connection holds the write lock. */
function tryBeginImmediate(connection: SqliteDatabase.Database): boolean {
  try {
    connection.exec('BEGIN IMMEDIATE');
    return true;
  } catch (error) {
    if (error instanceof SqliteDatabase.SqliteError && error.code === 'SQLITE_BUSY') return false;
    throw error;
  }
}

/**
 * Whether the database has run exactly these migrations, read in one query of Kysely's migration table. The migrator
 * finds that too, but only after reading the catalogue twice (whether its tables exist) and taking its lock: 120-160 ms
 * on PostgreSQL for every database a test opens. Anything else (no table yet, a migration to run, one this code does
 * not know) goes to the migrator, which migrates or refuses as before; so does an error here, which it meets again.
 */
async function hasRunExactly(db: Db, names: readonly string[]): Promise<boolean> {
  const executed = await sql<{ name: string }>`select name from ${sql.table(DEFAULT_MIGRATION_TABLE)}`
    .execute(db)
    .then(({ rows }) => rows.map((row) => row.name).sort())
    .catch(() => null);
  return executed !== null && executed.length === names.length && executed.every((name, i) => name === names[i]);
}
