import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, QueryResult } from 'kysely';

/**
 * SQLite's compiled queries run at once (issue 10, the server's CPU per payment): better-sqlite3 runs a statement to
 * completion before it returns, so a statement outside any transaction cannot interleave with another. Kysely's driver
 * would still make it wait its turn for the one connection (a lock of promises) and hand its result through several
 * more: about 5-11 µs of CPU a statement in a loop, a dozen statements per payment.
 */
export interface SqliteAtOnce {
  database: SqliteDatabase.Database;
  /** The prepared statement of a text (connect.ts keeps them). */
  prepare(sql: string): SqliteDatabase.Statement;
}

/** The SQLite connections by the Kysely instance made over each (not its transactions: those are other objects). */
const connections = new WeakMap<object, SqliteAtOnce>();

export function registerSqliteAtOnce(db: object, connection: SqliteAtOnce): void {
  connections.set(db, connection);
}

/**
 * Runs `query` at once when `db` is a SQLite database (not a transaction of it) and no transaction is open on its
 * connection: then nothing else holds it between two statements, and this one is its own transaction, as through
 * Kysely. Undefined otherwise (PostgreSQL, a transaction's statements, any statement while a transaction is open:
 * Kysely queues it behind the transaction, so it never runs inside another request's transaction).
 */
export function runAtOnce<R>(db: object, query: CompiledQuery<R>): QueryResult<R> | undefined {
  const connection = connections.get(db);
  if (connection === undefined || connection.database.inTransaction) return undefined;
  // What Kysely's SQLite driver answers for the same statement.
  const statement = connection.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}
