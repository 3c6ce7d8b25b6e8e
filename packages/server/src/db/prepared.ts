import { DeleteQueryNode, InsertQueryNode, PostgresAdapter, SelectQueryNode, UpdateQueryNode } from 'kysely';
import type { Compilable, CompiledQuery, OperationNode, QueryResult } from 'kysely';
import type { Db } from './connect.ts';
import { runPipelined } from './postgres-pipeline.ts';
import { runAtOnce } from './sqlite-at-once.ts';

/**
 * Queries built and compiled once, run many times with new values (issue 10: building and compiling a Kysely query
 * anew on every run was about 15% of the server's CPU on the payment path).
 *
 * The builder is called once per database with `params` whose members are stand-ins (`Slot`s), not values: Kysely puts
 * them in the compiled query's parameters as it would any value, and each run swaps in its own values. So a builder
 * must only hand its params to Kysely as values (`where('id', '=', p.id)`, `.limit(p.limit)`, or `.values(p)`: a row
 * of the columns of the params it was first run with, so give every run all of them), never look at them (no `if`, no
 * arithmetic, no `in` list of a param array): such a query would run as it was built the first time. `params` may be
 * an array (positional values `p[0]`, `p[1]`, ...: a stand-in is named by its index).
 * The SQL text is the same on every run, so SQLite reuses its prepared statement (connect.ts) and PostgreSQL runs a
 * named prepared statement (`isPreparedText`).
 */
export interface Prepared<P, R> {
  execute(db: Executor, params: P): Promise<QueryResult<R>>;
  /** The first row, or undefined. */
  takeFirst(db: Executor, params: P): Promise<R | undefined>;
  /** How many rows an insert, update or delete changed. */
  affected(db: Executor, params: P): Promise<number>;
}

/** A database or a transaction of it. */
type Executor = Pick<Db, 'executeQuery' | 'getExecutor' | 'isTransaction'>;

export interface PreparedOptions {
  /**
   * `relaxed`: on PostgreSQL the write's commit does not wait for its flush to the disk (`synchronous_commit` off for
   * its own transaction only), for the writes whose loss in a power cut is harmless (server README, "Durability"):
   * counts, spends, claims. Every later flushed commit flushes it too (the write-ahead log is written in order), so a
   * payment's relaxed writes are on the disk once its attempt is. It must run alone, not in a transaction: there it
   * would relax the transaction's other writes (refused). SQLite flushes only where `syncWrites` is called anyway.
   */
  commit?: 'relaxed';
}

/**
 * PostgreSQL applies the `synchronous_commit` in force when a transaction commits, and `set_config(..., true)` (a
 * `SET LOCAL`) lasts until the transaction's end: evaluated in the write's own RETURNING, it relaxes that statement's
 * commit alone, with no statement or round trip more (db/commit-durability.test.ts). The RETURNING is evaluated for
 * each row written; a write that writes no row has nothing to flush.
 */
const RELAXED_COMMIT = "set_config('synchronous_commit', 'off', true) as relaxed_commit";

function relaxedOnPostgres<R>(query: CompiledQuery<R>): CompiledQuery<R> {
  const node = query.query;
  if (!InsertQueryNode.is(node) && !UpdateQueryNode.is(node) && !DeleteQueryNode.is(node)) {
    throw new Error('prepared: only a write can have a relaxed commit');
  }
  // Kysely writes a write's RETURNING last.
  return { ...query, sql: `${query.sql}${node.returning === undefined ? ' returning' : ','} ${RELAXED_COMMIT}` };
}

/**
 * A read that takes no lock: a select with no locking clause (`for update`, ...: Kysely's end modifiers) and no `with`
 * (whose parts may write).
 */
function isPlainRead(node: OperationNode): boolean {
  return SelectQueryNode.is(node) && node.with === undefined && (node.endModifiers?.length ?? 0) === 0;
}

class Slot {
  constructor(readonly name: string) {}
}

/** The SQL texts of the prepared queries: PostgreSQL prepares these by name on each connection (connect.ts). */
const preparedTexts = new Set<string>();

export function isPreparedText(sql: string): boolean {
  return preparedTexts.has(sql);
}

/** Stand-ins for `params`' members: any member read is a Slot, and its keys are those of `params`. */
function slotsFor<P extends object>(params: P): P {
  return new Proxy({} as Record<string, Slot>, {
    get: (_target, name) => new Slot(String(name)),
    ownKeys: () => Object.keys(params),
    getOwnPropertyDescriptor: (_target, name) => ({ enumerable: true, configurable: true, value: new Slot(String(name)) }),
  }) as unknown as P;
}

/**
 * A compiled query and, for each of its parameters, the member of `params` it takes (a Slot's name; an index for an
 * array's), or undefined for a value the builder gave itself.
 */
interface Compiled<R> {
  query: CompiledQuery<R>;
  slots: ReadonlyArray<string | number | undefined>;
}

const slotOf = (value: unknown): string | number | undefined => {
  if (!(value instanceof Slot)) return undefined;
  // An array's member by its index: a number reads an array's element where its name is a property look-up.
  const index = Number(value.name);
  return String(index) === value.name ? index : value.name;
};

const firstRow = <R>(result: QueryResult<R>): R | undefined => result.rows[0];
const affectedRows = (result: QueryResult<unknown>): number => Number(result.numAffectedRows ?? 0n);

/** `build` makes the query from a database and the stand-ins of its params. */
export function prepared<P extends object, R>(
  build: (db: Db, params: P) => Compilable<R>,
  options: PreparedOptions = {},
): Prepared<P, R> {
  const relaxed = options.commit === 'relaxed';
  // One compiled query per dialect (a transaction shares its database's adapter): SQLite and PostgreSQL differ.
  const compiled = new WeakMap<object, Compiled<R>>();
  // Outside a transaction on PostgreSQL, a statement that waits for no flush shares the pipeline's connections.
  let pipelined: boolean | undefined;
  const compile = (db: Executor, params: P): Compiled<R> => {
    const adapter = db.getExecutor().adapter;
    let made = compiled.get(adapter);
    if (made === undefined) {
      let query = build(db as Db, slotsFor(params)).compile();
      if (relaxed && adapter instanceof PostgresAdapter) query = relaxedOnPostgres(query);
      made = { query, slots: query.parameters.map(slotOf) };
      compiled.set(adapter, made);
      preparedTexts.add(query.sql);
      pipelined ??= relaxed || isPlainRead(query.query);
    }
    return made;
  };
  /** The compiled query with this run's values (each run's own object: a statement's values are kept with it). */
  const withValues = ({ query, slots }: Compiled<R>, params: P): CompiledQuery<R> => {
    const values = params as Record<string | number, unknown>;
    const parameters = new Array<unknown>(slots.length);
    for (let i = 0; i < slots.length; i += 1) {
      const slot = slots[i];
      if (slot === undefined) {
        parameters[i] = query.parameters[i];
        continue;
      }
      const given = values[slot];
      if (given === undefined) throw new Error(`prepared query: no value for ${slot}`);
      parameters[i] = given;
    }
    return { query: query.query, queryId: query.queryId, sql: query.sql, parameters };
  };
  const execute = (db: Executor, params: P): Promise<QueryResult<R>> => {
    // SQLite outside a transaction: at once, answered at its commit (sqlite-at-once.ts); PostgreSQL outside one, a read
    // or a relaxed write: on the pipeline (postgres-pipeline.ts). A statement that fails rejects, as through Kysely,
    // and so does a query that cannot be made (never a throw: callers chain on the promise).
    try {
      const made = compile(db, params);
      if (relaxed && db.isTransaction && db.getExecutor().adapter instanceof PostgresAdapter) {
        return Promise.reject(new Error('prepared: a write with a relaxed commit runs alone, not in a transaction'));
      }
      const run = withValues(made, params);
      return runAtOnce(db, run) ?? (pipelined === true ? runPipelined(db, run) : undefined) ?? db.executeQuery<R>(run);
    } catch (error) {
      return Promise.reject(error);
    }
  };
  return {
    execute,
    takeFirst: (db, params) => execute(db, params).then(firstRow),
    affected: (db, params) => execute(db, params).then(affectedRows),
  };
}

/** A query made for each shape it comes in (a list's length, its kinds), once: `make` builds a Prepared for a shape. */
export function byShape<K, T>(make: (shape: K) => T): (shape: K) => T {
  const made = new Map<K, T>();
  return (shape) => {
    let query = made.get(shape);
    if (query === undefined) {
      query = make(shape);
      made.set(shape, query);
    }
    return query;
  };
}
