import type SqliteDatabase from 'better-sqlite3';
import type { CompiledQuery, Kysely, QueryResult } from 'kysely';

/**
 * SQLite's compiled queries run at once (issue 10, the server's CPU per payment): better-sqlite3 runs a statement to
 * completion before it returns, so a statement outside any transaction cannot interleave with another. Kysely's driver
 * would still make it wait its turn for the one connection (a lock of promises) and hand its result through several
 * more: about 5-11 µs of CPU a statement in a loop, a dozen statements per payment.
 *
 * And the writes of one turn of the event loop share one commit (a group commit, issue 10, cpu3): the first write
 * opens a transaction (`BEGIN IMMEDIATE`), every compiled statement until the turn's end runs in it, at once, and it
 * commits in the turn's check phase (`setImmediate`). Each statement's answer is handed back only once its commit is
 * done, so no request acts on a write (or a read of one) the database could still lose: what a caller is told is
 * committed, as with a commit of its own. A commit writes each page its transaction changed to the log once: the
 * requests of a turn share the pages they all change (an index's last page, the log's header) and the commit's
 * locks and writes, which each statement paid alone before.
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

/**
 * A statement's answer, kept until its batch's COMMIT: the value and its promise's functions, with no closure made for
 * each (a dozen statements a payment; under tsx, which keeps functions' names, a named closure cost a
 * `defineProperty` of its name more: issue 10, cpu8).
 */
interface Answer {
  value: unknown;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A turn's shared transaction: the answers of its statements, handed back at its COMMIT (or failed with it). */
interface Batch {
  connection: SqliteAtOnce;
  answers: Answer[];
  /**
   * A transaction of `transaction` runs inside it (a savepoint): no other statement joins it, and its COMMIT waits for
   * the savepoint's end (`due`: the turn ended meanwhile).
   */
  held?: true;
  due?: true;
}
/** The open batch of each SQLite connection (by its better-sqlite3 database: a transaction's instance shares it). */
const batches = new WeakMap<SqliteDatabase.Database, Batch>();
// The real one, whatever a test's fake timers put in the global later: a commit must not wait for a faked clock.
const atTurnEnd = setImmediate;

export function registerSqliteAtOnce(db: object, connection: SqliteAtOnce): void {
  connections.set(db, connection);
}

/**
 * Commits the connection's open batch, if any, and hands its statements' answers back (or their failure, when the
 * COMMIT fails: then none of them happened). Called at the turn's end, and before anything else uses the connection:
 * a query through Kysely (connect.ts), a transaction of `transaction`, a pragma, the connection's close.
 */
export function commitBatch(database: SqliteDatabase.Database): void {
  const batch = batches.get(database);
  if (batch === undefined) return;
  if (batch.held === true) {
    batch.due = true;
    return;
  }
  batches.delete(database);
  try {
    batch.connection.prepare('commit').run();
  } catch (error) {
    if (database.inTransaction) batch.connection.prepare('rollback').run();
    for (const answer of batch.answers) answer.reject(error);
    return;
  }
  for (const answer of batch.answers) answer.resolve(answer.value);
}

function openBatch(connection: SqliteAtOnce): Batch {
  // IMMEDIATE: the write lock from the start, so a read that opens nothing and a later write cannot find the
  // snapshot stale (another process's write, waited for by busy_timeout instead).
  connection.prepare('begin immediate').run();
  const batch: Batch = { connection, answers: [] };
  batches.set(connection.database, batch);
  atTurnEnd(() => commitBatch(connection.database));
  return batch;
}

/** What Kysely's SQLite driver answers for the same statement. */
function runStatement<R>(statement: SqliteDatabase.Statement, query: CompiledQuery<R>): QueryResult<R> {
  if (statement.reader) return { rows: statement.all(query.parameters) as R[] };
  const { changes, lastInsertRowid } = statement.run(query.parameters);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/** `value`, handed back once `batch` commits (or its failure). */
function answeredAtCommit<T>(batch: Batch, value: T): Promise<T> {
  return new Promise((resolve, reject) => {
    batch.answers.push({ value, resolve: resolve as (value: unknown) => void, reject });
  });
}

/**
 * Runs `query` at once when `db` is a SQLite database (not a transaction of it) and no other transaction is open on its
 * connection: then nothing else holds it between two statements. A write joins the turn's batch (opening it), and so
 * does a read while one is open; their answers come at the batch's COMMIT. A read (a statement that writes nothing)
 * with no batch open is its own transaction, answered at once. Inside `transaction`'s own transaction (`holder`), at
 * once, answered at once: its COMMIT is the body's. Undefined otherwise (PostgreSQL, a transaction's statements, any
 * statement while a transaction of Kysely's is open: Kysely queues it behind that transaction, so it never runs inside
 * another request's transaction).
 */
export function runAtOnce<R>(db: object, query: CompiledQuery<R>): Promise<QueryResult<R>> | undefined {
  if (ended.has(db)) throw new Error('a statement through the connection a transaction held, after the transaction ended');
  const connection = connections.get(db);
  if (connection === undefined) return undefined;
  const { database } = connection;
  let batch = batches.get(database);
  if (connection.holder !== true && (batch === undefined ? database.inTransaction : batch.held === true)) return undefined;
  const statement = connection.prepare(query.sql);
  if (connection.holder === true) return Promise.resolve(runStatement(statement, query));
  if (batch === undefined) {
    // `readonly`, not `reader`: a write that returns rows (an upsert's RETURNING, the rate limit's count) is a reader to
    // better-sqlite3, and alone it was a transaction and a commit of its own instead of one shared with the turn's.
    if (statement.readonly) return Promise.resolve(runStatement(statement, query));
    batch = openBatch(connection);
  }
  let result: QueryResult<R>;
  try {
    result = runStatement(statement, query);
  } catch (error) {
    // SQLite undid the statement alone, or (a full disk, an I/O error) the whole transaction: then the batch's other
    // statements are undone too, and fail with it.
    if (!database.inTransaction) {
      batches.delete(database);
      for (const answer of batch.answers) answer.reject(error);
    }
    return Promise.reject(error);
  }
  return answeredAtCommit(batch, result);
}

/**
 * Runs `body` in one transaction. On SQLite (a database, not a transaction of it) the connection is held as Kysely's
 * own transactions hold it (its lock: any query another request makes through Kysely waits, and runAtOnce leaves them
 * to it while the transaction runs), and `body` runs inside the turn's shared transaction (opened if none is), in a
 * savepoint: its compiled queries at once, undone alone by a ROLLBACK TO when it throws, and committed with the turn's
 * other writes (issue 10: its own BEGIN and COMMIT split the turn's batch in two and added a commit of their own, two
 * commits a payment). Its result is handed back only once that commit is done, as each statement's is. Elsewhere,
 * Kysely's transaction.
 */
export async function transaction<DB, T>(db: Kysely<DB>, body: (trx: Kysely<DB>) => Promise<T>): Promise<T> {
  const connection = connections.get(db);
  if (connection === undefined || connection.holder === true) return db.transaction().execute(body);
  const { database } = connection;
  const { committed } = await db.connection().execute(async (held) => {
    connections.set(held, { ...connection, holder: true });
    const batch = batches.get(database) ?? openBatch(connection);
    batch.held = true;
    connection.prepare('savepoint kassa_transaction').run();
    try {
      const result = await body(held);
      connection.prepare('release kassa_transaction').run();
      return { committed: answeredAtCommit(batch, result) };
    } catch (error) {
      if (database.inTransaction) {
        connection.prepare('rollback to kassa_transaction').run();
        connection.prepare('release kassa_transaction').run();
      } else {
        // SQLite rolled the whole transaction back (a full disk, an I/O error): the batch's statements with it.
        batches.delete(database);
        for (const answer of batch.answers) answer.reject(error);
      }
      throw error;
    } finally {
      connections.delete(held);
      ended.add(held);
      delete batch.held;
      if (batch.due === true && batches.get(database) === batch) atTurnEnd(() => commitBatch(database));
    }
  });
  return committed;
}
