import type Database from 'better-sqlite3';
import { decodeValue, encodeValue } from './json-codec.ts';
import type { JsonValue } from './json-codec.ts';
import { RecordCache } from './record-cache.ts';
import type { Collection, KeyDefinitions, KeyValue, Store } from './store.ts';

// The records of both stores live in SQLite and are read on demand, so the process holds only what it uses: the
// records changed since the last write (a burst's), and a bounded cache of those read last. Start-up reads nothing.
//
// A change is kept in `pending` (the record and its JSON, encoded at once so that a value JSON would change is refused
// where the caller can see it) and written a few milliseconds later with the others of its burst, in one
// transaction: a crash leaves the state before or after a burst, never half of one. A query that must see the
// changes (records in order, by key) first applies them inside the burst's open transaction, which stays uncommitted
// until the burst's write: the same connection reads its own changes. If the commit fails, the transaction is rolled
// back and the burst stays pending, applied again at the next attempt.
//
// Tables (schema.ts): `records(collection, id, seq, value)`, `seq` the insertion order; `record_keys(collection, name,
// value, seq, id)`, the declared keys of each record, indexed for look-ups and ranges.

const DEFAULT_DEBOUNCE_MS = 20;
/** Records read last, kept decoded: about 2 KB each, a few MB in all. */
export const DEFAULT_CACHED_RECORDS = 2000;
/** A burst holding this many changed records is written as soon as the running operation ends, not 20 ms later. */
const PENDING_WRITE_AT = 2000;
/** Rows read per page by inOrder and byKey; the first page is smaller: the sweeps and queues mostly stop early. */
const PAGE = 256;
const FIRST_PAGE = 8;

/** A change waiting for the next write: the record and its JSON, or null for a deletion; `moved` if deleted then set again. */
interface Pending {
  value: unknown;
  json: string | null;
  moved: boolean;
}

export interface SqliteStoreOptions {
  /** The database when it exists already; otherwise `create` makes it at the first write. */
  database: Database.Database | null;
  /** Makes the database with its schema (schema.ts). */
  create: () => Database.Database;
  /** How long a change waits for others before it is written. */
  debounceMs?: number;
  /** At most this many records read are kept decoded (default DEFAULT_CACHED_RECORDS). */
  cachedRecords?: number;
  /** A background write failed (the changes stay pending; flush/close try again and throw). */
  onError: (error: Error) => void;
  /** The error to throw for a failed write (the file store names its file). */
  writeError: (cause: unknown) => Error;
  /** The error to throw when the closed store is changed. */
  closedError: () => Error;
  /** Closes the database (the file store first folds its write-ahead log back). */
  closeDatabase: (db: Database.Database) => void;
  /**
   * Makes the bursts committed so far survive a power cut: `now` (flush() and close() return once they do), or off the
   * event loop after a background write (the file store flushes its log in the thread pool).
   */
  durable?: (now: boolean) => void;
}

export interface SqliteStore extends Store {
  /** Number of bursts written (for tests and diagnostics). */
  readonly writes: number;
  /** Number of records held decoded: the cache's and the pending burst's (tests check it stays bounded). */
  readonly recordsHeld: number;
  /** Number of records read from the database and decoded so far (tests check what an operation reads). */
  readonly recordsRead: number;
}

interface Statements {
  get: Database.Statement<[string, string], { value: string }>;
  has: Database.Statement<[string, string], { found: number }>;
  upsert: Database.Statement<[string, string, number, string], { seq: number }>;
  remove: Database.Statement<[string, string]>;
  removeKeys: Database.Statement<[string, string]>;
  insertKey: Database.Statement<[string, string, KeyValue, number, string]>;
  lastSeq: Database.Statement<[string], { seq: number | null }>;
  inOrder: Database.Statement<[string, number, number], { id: string; seq: number; value: string }>;
  withKey: Database.Statement<[string, string, KeyValue], { id: string; value: string }>;
  byKey: Database.Statement<[string, string, number, number, number, number], { id: string; key: number; seq: number }>;
  keyNames: Database.Statement<[string], { value: string }>;
  setKeyNames: Database.Statement<[string, string]>;
  clearKeys: Database.Statement<[string]>;
}

function prepare(db: Database.Database): Statements {
  return {
    get: db.prepare('SELECT value FROM records WHERE collection = ? AND id = ?'),
    has: db.prepare('SELECT 1 AS found FROM records WHERE collection = ? AND id = ?'),
    upsert: db.prepare(
      'INSERT INTO records (collection, id, seq, value) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET value = excluded.value RETURNING seq',
    ),
    remove: db.prepare('DELETE FROM records WHERE collection = ? AND id = ?'),
    removeKeys: db.prepare('DELETE FROM record_keys WHERE collection = ? AND id = ?'),
    insertKey: db.prepare('INSERT INTO record_keys (collection, name, value, seq, id) VALUES (?, ?, ?, ?, ?)'),
    lastSeq: db.prepare('SELECT max(seq) AS seq FROM records WHERE collection = ?'),
    inOrder: db.prepare('SELECT id, seq, value FROM records WHERE collection = ? AND seq > ? ORDER BY seq LIMIT ?'),
    withKey: db.prepare(
      'SELECT r.id, r.value FROM record_keys k JOIN records r ON r.collection = k.collection AND r.id = k.id WHERE k.collection = ? AND k.name = ? AND k.value = ? ORDER BY k.seq',
    ),
    byKey: db.prepare(
      'SELECT id, value AS key, seq FROM record_keys WHERE collection = ? AND name = ? AND (value, seq) > (?, ?) AND value <= ? ORDER BY value, seq LIMIT ?',
    ),
    keyNames: db.prepare("SELECT value FROM meta WHERE key = 'keys/' || ?"),
    setKeyNames: db.prepare(
      "INSERT INTO meta (key, value) VALUES ('keys/' || ?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
    ),
    clearKeys: db.prepare('DELETE FROM record_keys WHERE collection = ?'),
  };
}

function cacheKey(name: string, id: string): string {
  return `${name}\n${id}`;
}

function keyNamesOf(keys: KeyDefinitions<unknown>): string {
  return JSON.stringify(Object.keys(keys).sort());
}

export function openSqliteStore(options: SqliteStoreOptions): SqliteStore {
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const cache = new RecordCache(options.cachedRecords ?? DEFAULT_CACHED_RECORDS);
  /** Every change since the last commit, by collection then id, in the order they are to be applied. */
  const pending = new Map<string, Map<string, Pending>>();
  /** Those of `pending` not applied yet to the open transaction. */
  let unapplied = new Map<string, Map<string, Pending>>();
  let pendingCount = 0;
  const declaredKeys = new Map<string, KeyDefinitions<unknown>>();
  const views = new Map<string, Collection<unknown>>();
  let db = options.database;
  let statements = db === null ? null : prepare(db);
  /** Each collection's next `seq` (its insertion order), read from its index at its first write. */
  const nextSeqs = new Map<string, number>();
  /** A failed write rolled back key rows that a declaration had indexed: checked again at the next write. */
  let recheckKeys = false;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let immediate: ReturnType<typeof setImmediate> | null = null;
  let writes = 0;
  let recordsRead = 0;

  /**
   * The key values (as JSON) each record object was read or last written with, so that what its key rows already
   * hold is not written again: most changes (a transaction's status) leave a record's keys as they were.
   */
  const writtenKeys = new WeakMap<object, string>();

  /** The record's keys under `keys`, as [name, value] pairs (nulls left out). */
  function keyEntries(keys: KeyDefinitions<unknown>, value: unknown): Array<[string, KeyValue]> {
    const entries: Array<[string, KeyValue]> = [];
    for (const [key, of] of Object.entries(keys)) {
      const keyValue = of(value);
      if (keyValue !== null) entries.push([key, keyValue]);
    }
    return entries;
  }

  function decode(name: string, id: string, json: string): unknown {
    recordsRead += 1;
    const value = decodeValue(JSON.parse(json) as JsonValue, `${name}/${id}`);
    const keys = declaredKeys.get(name);
    if (keys !== undefined && typeof value === 'object' && value !== null)
      writtenKeys.set(value, JSON.stringify(keyEntries(keys, value)));
    return value;
  }

  /** The database and its statements, made at the first need. */
  function open(): Statements {
    if (db === null || statements === null) {
      const created = options.create();
      db = created;
      statements = prepare(created);
      for (const [name, keys] of declaredKeys) indexKeys(statements, name, keys);
    }
    return statements;
  }

  /** Opens the burst's transaction (left open until its write). */
  function begin(): void {
    if (db !== null && !db.inTransaction) db.exec('BEGIN');
  }

  /**
   * Writes the key rows of a record whose row was just written: all of them for a new row, none when they are those
   * it was read or last written with, else the old ones replaced.
   */
  function writeKeys(sql: Statements, name: string, id: string, seq: number, value: unknown, newRow: boolean): void {
    const keys = declaredKeys.get(name);
    if (keys === undefined) return;
    const entries = keyEntries(keys, value);
    const written = JSON.stringify(entries);
    const object = typeof value === 'object' && value !== null ? value : null;
    if (!newRow) {
      if (object !== null && writtenKeys.get(object) === written) return;
      sql.removeKeys.run(name, id);
    }
    for (const [key, keyValue] of entries) sql.insertKey.run(name, key, keyValue, seq, id);
    if (object !== null) writtenKeys.set(object, written);
  }

  /**
   * Indexes the records of `name` under its declared keys when the file's keys were made under other names (a file
   * of an earlier version, or keys changed since): every record is read once, a page at a time.
   */
  function indexKeys(sql: Statements, name: string, keys: KeyDefinitions<unknown>, always = false): void {
    const wanted = keyNamesOf(keys);
    if (!always && (sql.keyNames.get(name)?.value ?? '[]') === wanted) return;
    begin();
    scheduleWrite();
    sql.clearKeys.run(name);
    for (let after = 0; ; ) {
      const rows = sql.inOrder.all(name, after, PAGE);
      for (const row of rows) writeKeys(sql, name, row.id, row.seq, decode(name, row.id, row.value), true);
      if (rows.length < PAGE) break;
      after = rows.at(-1)?.seq ?? after;
    }
    sql.setKeyNames.run(name, wanted);
  }

  /** Applies the changes not yet applied inside the burst's open transaction (uncommitted); answers the statements. */
  function apply(): Statements {
    const sql = open();
    if (recheckKeys) {
      recheckKeys = false;
      for (const [name, keys] of declaredKeys) indexKeys(sql, name, keys);
    }
    if (unapplied.size > 0) begin();
    for (const [name, changes] of unapplied) {
      const keyed = declaredKeys.has(name);
      for (const [id, change] of changes) {
        if (change.json === null || change.moved) {
          sql.remove.run(name, id);
          if (keyed) sql.removeKeys.run(name, id);
        }
        // Deleted then set again: a new row, so it takes the next seq (it goes last).
        if (change.json === null) continue;
        const nextSeq = nextSeqs.get(name) ?? (sql.lastSeq.get(name)?.seq ?? 0) + 1;
        const seq = sql.upsert.get(name, id, nextSeq, change.json)?.seq ?? nextSeq;
        const newRow = seq === nextSeq;
        nextSeqs.set(name, newRow ? nextSeq + 1 : nextSeq);
        if (keyed) writeKeys(sql, name, id, seq, change.value, newRow);
      }
    }
    unapplied = new Map();
    return sql;
  }

  /** For a query: the statements with every change applied, or null when nothing was ever stored. */
  function readable(): Statements | null {
    if (db === null && pendingCount === 0) return null;
    return apply();
  }

  function write(): void {
    if (pendingCount === 0 && !(db?.inTransaction ?? false)) return;
    try {
      apply();
      if (db?.inTransaction === true) db.exec('COMMIT');
    } catch (error) {
      // Rolled back (or never begun): the whole burst is applied again at the next attempt.
      if (db?.inTransaction === true) db.exec('ROLLBACK');
      unapplied = new Map([...pending].map(([name, changes]) => [name, new Map(changes)]));
      // Their key rows were rolled back too: written again in full.
      for (const changes of pending.values())
        for (const change of changes.values())
          if (typeof change.value === 'object' && change.value !== null) writtenKeys.delete(change.value);
      nextSeqs.clear();
      recheckKeys = true;
      throw options.writeError(error);
    }
    for (const [name, changes] of pending) {
      for (const [id, change] of changes) {
        if (change.json === null) cache.delete(cacheKey(name, id));
        else cache.set(cacheKey(name, id), change.value);
      }
    }
    pending.clear();
    pendingCount = 0;
    writes += 1;
  }

  function writeInBackground(): void {
    try {
      write();
      options.durable?.(false);
    } catch (error) {
      // Still pending: the next change, flush() or close() tries again.
      options.onError(error instanceof Error ? error : new Error(String(error)));
    }
  }

  function record(changes: Map<string, Map<string, Pending>>, name: string, id: string, change: Pending): void {
    let ofCollection = changes.get(name);
    if (ofCollection === undefined) {
      ofCollection = new Map();
      changes.set(name, ofCollection);
    }
    const before = ofCollection.get(id);
    const moved = change.json !== null && before !== undefined && (before.json === null || before.moved);
    // A record deleted and set again goes last, after the records first set in this burst: the map keeps that order.
    if (moved) ofCollection.delete(id);
    ofCollection.set(id, { ...change, moved: moved || change.moved });
    if (before === undefined && changes === pending) pendingCount += 1;
  }

  function changed(name: string, id: string, value: unknown, json: string | null): void {
    record(pending, name, id, { value, json, moved: false });
    // Moved or not is judged on the burst since the last commit (pending): the unapplied part follows it.
    const decided = pending.get(name)?.get(id);
    if (decided !== undefined) record(unapplied, name, id, decided);
    if (pendingCount >= PENDING_WRITE_AT && immediate === null) {
      immediate = setImmediate(() => {
        immediate = null;
        writeInBackground();
      });
    }
    scheduleWrite();
  }

  function scheduleWrite(): void {
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      writeInBackground();
    }, debounceMs);
  }

  function assertOpen(): void {
    if (closed) throw options.closedError();
  }

  /** The record as the caller should see it: the pending one, else the cached one (the same object), else `json`'s. */
  function recordOf(name: string, id: string, json: string): unknown {
    const change = pending.get(name)?.get(id);
    if (change !== undefined && change.json !== null) return change.value;
    return cache.get(cacheKey(name, id)) ?? decode(name, id, json);
  }

  function collection<T>(name: string, keys?: KeyDefinitions<T>): Collection<T> {
    // Keys are declared once, by the module that owns the records; other callers (tests, a second reader) pass none.
    if (keys !== undefined && Object.keys(keys).length > 0) {
      const declared = declaredKeys.get(name);
      if (declared === undefined) {
        declaredKeys.set(name, keys as KeyDefinitions<unknown>);
        // Records this process stored before the keys were declared have no key rows yet: index them all again.
        if (db !== null) indexKeys(apply(), name, keys as KeyDefinitions<unknown>, views.has(name));
      } else if (keyNamesOf(declared) !== keyNamesOf(keys as KeyDefinitions<unknown>)) {
        throw new Error(`collection "${name}" is declared twice with different keys`);
      }
    }
    const existing = views.get(name);
    if (existing !== undefined) return existing as Collection<T>;
    const view: Collection<unknown> = {
      get(id) {
        const change = pending.get(name)?.get(id);
        if (change !== undefined) return change.json === null ? undefined : change.value;
        const key = cacheKey(name, id);
        const cached = cache.get(key);
        if (cached !== undefined) return cached;
        const row = statements?.get.get(name, id);
        if (row === undefined) return undefined;
        const value = decode(name, id, row.value);
        cache.set(key, value);
        return value;
      },
      has(id) {
        const change = pending.get(name)?.get(id);
        if (change !== undefined) return change.json !== null;
        return cache.get(cacheKey(name, id)) !== undefined || statements?.has.get(name, id) !== undefined;
      },
      set(id, value) {
        assertOpen();
        // Encoded now, where the caller can see a value JSON would not give back, rather than in a background write.
        changed(name, id, value, JSON.stringify(encodeValue(value, `${name}/${id}`)));
      },
      delete(id) {
        assertOpen();
        if (!view.has(id)) return false;
        changed(name, id, undefined, null);
        return true;
      },
      discard(id) {
        assertOpen();
        // Written as a deletion whether or not the row exists: deleting no row changes nothing.
        changed(name, id, undefined, null);
      },
      *inOrder() {
        for (let after = 0, size = FIRST_PAGE; ; size = PAGE) {
          const rows = readable()?.inOrder.all(name, after, size) ?? [];
          for (const row of rows) yield recordOf(name, row.id, row.value);
          if (rows.length < size) return;
          after = rows.at(-1)?.seq ?? after;
        }
      },
      withKey(key, value) {
        return (readable()?.withKey.all(name, key, value) ?? []).map((row) => recordOf(name, row.id, row.value));
      },
      *byKey(key, range = {}) {
        const max = range.max ?? Number.POSITIVE_INFINITY;
        let cursor = { key: range.min ?? Number.NEGATIVE_INFINITY, seq: 0 };
        for (let size = FIRST_PAGE; ; size = PAGE) {
          const rows = readable()?.byKey.all(name, key, cursor.key, cursor.seq, max, size) ?? [];
          for (const row of rows) yield { id: row.id, key: row.key };
          const last = rows.at(-1);
          if (rows.length < size || last === undefined) return;
          cursor = last;
        }
      },
    };
    views.set(name, view);
    // Each name is only ever used with one record type (see core/), and records were checked (or decoded) as plain
    // data, so the cast is sound.
    return view as Collection<T>;
  }

  function cancelTimers(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (immediate !== null) {
      clearImmediate(immediate);
      immediate = null;
    }
  }

  function flush(): void {
    cancelTimers();
    write();
    options.durable?.(true);
  }

  return {
    get writes() {
      return writes;
    },
    get recordsHeld() {
      return cache.size + pendingCount;
    },
    get recordsRead() {
      return recordsRead;
    },
    collection,
    flush() {
      assertOpen();
      flush();
    },
    checkpoint() {
      if (closed || pendingCount < PENDING_WRITE_AT) return;
      cancelTimers();
      writeInBackground();
    },
    close() {
      if (closed) return;
      flush();
      closed = true;
      if (db !== null) options.closeDatabase(db);
    },
  };
}
