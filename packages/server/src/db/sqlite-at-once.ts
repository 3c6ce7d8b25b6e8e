import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

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

/**
 * The SQLite connections by the Kysely instance made over each (not its transactions: those are other objects), and by
 * the instance a transaction of `transaction` holds the connection through (`holder`: its statements run at once inside
 * the transaction it opened), until that transaction ends.
 */
const connections = new WeakMap<object, SqliteAtOnce & { holder?: true }>();
/**
 * The instances a transaction of `transaction` held the connection through, once it ended: a reference kept past the
 * COMMIT or ROLLBACK holds nothing, so a compiled query through it is refused instead of run at once, where it would
 * land in whatever transaction another request has open on the connection then.
 */
const ended = new WeakSet<object>();

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
  if (ended.has(db)) throw new Error('a statement through the connection a transaction held, after the transaction ended');
  const connection = connections.get(db);
  if (connection === undefined || (connection.database.inTransaction && connection.holder !== true)) return undefined;
  // What Kysely's SQLite driver answers for the same statement.
  const statement = connection.prepare(query.sql);
  if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * Runs `body` in one transaction. On SQLite (a database, not a transaction of it) the connection is held as Kysely's
 * own transactions hold it (its lock: any query another request makes through Kysely waits, and runAtOnce leaves them
 * to it while a transaction is open), and the BEGIN, the compiled queries of `body` and the COMMIT (or ROLLBACK, when
 * `body` throws) run at once on it: Kysely's transaction sends BEGIN and COMMIT as queries of their own, each through
 * its driver's promises, and the statements through its transaction's. Elsewhere, Kysely's transaction.
 */
export function transaction<DB, T>(db: Kysely<DB>, body: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const connection = connections.get(db);
  if (connection === undefined || connection.holder === true) return db.transaction().execute(body);
  return db.connection().execute(async (held) => {
    connections.set(held, { ...connection, holder: true });
    connection.prepare('begin').run();
    try {
      const result = await body(held);
      connection.prepare('commit').run();
      return result;
    } catch (error) {
      // A failed COMMIT may have ended the transaction already (SQLite rolls back on some errors).
      if (connection.database.inTransaction) connection.prepare('rollback').run();
      throw error;
    } finally {
      connections.delete(held);
      ended.add(held);
    }
  });
}
