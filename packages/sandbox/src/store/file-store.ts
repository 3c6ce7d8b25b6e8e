import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, mkdirSync, openSync, readSync, renameSync, rmSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { decodeValue, encodeValue } from './json-codec.ts';
import type { JsonValue } from './json-codec.ts';
import { FILE_FORMAT, loadJsonStateFile } from './json-file.ts';
import type { StateCollections } from './json-file.ts';
import { corrupt, errorMessage, FileStoreError } from './store-error.ts';
import type { Collection, Store } from './store.ts';

export { FileStoreError } from './store-error.ts';

// The sandbox's state in one SQLite file, so that a restarted sandbox still knows the customers and transactions the
// product's database refers to. The state is read once at start into memory (Maps, so insertion order holds, and
// reads cost nothing); each set/delete is written a few milliseconds later, only the records that changed, in one
// transaction per burst of changes (a sale touches a nonce, a transaction and an idempotency key). So a change costs
// the same whatever the size of the state (issue 10: the whole state rewritten and fsynced after each burst made a
// tokenize plus sale 27 times slower with 15,000 cards kept). SQLite's write-ahead log with synchronous=FULL makes
// each committed burst durable (one fsync) and a crash leaves the state before or after a burst, never half of one.
// flush()/close() write pending changes synchronously, so a clean shutdown loses nothing.
//
// Layout: `meta(key, value)` holds the format and version; `records(collection, id, seq, value)` one row per record,
// `seq` its insertion order (a record set again keeps its place; deleted and set again, it goes last), `value` its
// JSON through json-codec.ts (Dates tagged, anything else that JSON would change refused). A JSON state file of an
// earlier version (json-file.ts) is converted when opened: the SQLite file is built beside it and renamed over it.

export const FILE_VERSION = 3;
const DEFAULT_DEBOUNCE_MS = 20;
const SQLITE_HEADER = 'SQLite format 3\0';

export interface FileStoreOptions {
  /** How long a change waits for others before it is written (default 20 ms). */
  debounceMs?: number;
  /** A background write failed (the changes stay pending; flush/close try again and throw). Default: stderr. */
  onError?: (error: FileStoreError) => void;
}

export interface FileStore extends Store {
  /** Absolute path of the data file. */
  readonly file: string;
  /** Number of bursts written (for tests and diagnostics). */
  readonly writes: number;
}

/** A change waiting for the next write: the record's JSON, or null for a deletion; `moved` if deleted then set again. */
interface Pending {
  json: string | null;
  moved: boolean;
}

function isSqliteFile(file: string): boolean {
  const header = Buffer.alloc(SQLITE_HEADER.length);
  const fd = openSync(file, 'r');
  try {
    return readSync(fd, header, 0, header.length, 0) === header.length && header.toString('latin1') === SQLITE_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** Opens the database file, created with mode 0600 when missing; nothing in an existing file is changed yet. */
function openDatabase(file: string): Database.Database {
  if (!existsSync(file)) closeSync(openSync(file, 'wx', 0o600));
  return new Database(file);
}

/**
 * Readies a file known to be ours for writes: mode 0600 (SQLite gives its log files the same mode), the write-ahead
 * log, and an fsync at each commit.
 */
function useForWrites(file: string, db: Database.Database): void {
  chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
}

/**
 * Closes the database back to a single file: leaving the write-ahead log checkpoints it and removes it, so a stopped
 * sandbox leaves one self-contained file.
 */
function closeDatabase(db: Database.Database): void {
  db.pragma('journal_mode = DELETE');
  db.close();
}

function createSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE records (collection TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, id));
    CREATE INDEX records_in_order ON records (seq);
  `);
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run('format', FILE_FORMAT, 'version', String(FILE_VERSION));
}

/** Reads every record of a SQLite state file, in insertion order; refuses a file that is not one. */
function loadDatabase(file: string, db: Database.Database): StateCollections {
  let meta: Map<string, string>;
  try {
    meta = new Map(
      db
        .prepare<[], { key: string; value: string }>('SELECT key, value FROM meta')
        .all()
        .map((row) => [row.key, row.value]),
    );
  } catch (error) {
    throw corrupt(file, `no sandbox state in this SQLite file: ${errorMessage(error)}`, error);
  }
  if (meta.get('format') !== FILE_FORMAT) throw corrupt(file, `"format" is not "${FILE_FORMAT}"`);
  if (meta.get('version') !== String(FILE_VERSION))
    throw corrupt(file, `unsupported version ${meta.get('version')}, expected ${FILE_VERSION}`);
  const collections: StateCollections = new Map();
  const rows = db
    .prepare<[], { collection: string; id: string; value: string }>('SELECT collection, id, value FROM records ORDER BY seq')
    .iterate();
  for (const { collection, id, value } of rows) {
    let records = collections.get(collection);
    if (records === undefined) {
      records = new Map();
      collections.set(collection, records);
    }
    try {
      records.set(id, decodeValue(JSON.parse(value) as JsonValue, `${collection}/${id}`));
    } catch (error) {
      throw corrupt(file, errorMessage(error), error);
    }
  }
  return collections;
}

/**
 * Turns a JSON state file into a SQLite one at the same path: built in a temporary file beside it, then renamed over
 * it, so a crash leaves one or the other.
 */
function convertJsonFile(file: string, collections: StateCollections): void {
  const temporary = resolve(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const db = openDatabase(temporary);
    try {
      useForWrites(temporary, db);
      createSchema(db);
      const insert = db.prepare('INSERT INTO records (collection, id, seq, value) VALUES (?, ?, ?, ?)');
      let seq = 0;
      db.transaction(() => {
        for (const [name, records] of collections) {
          for (const [id, record] of records)
            insert.run(name, id, (seq += 1), JSON.stringify(encodeValue(record, `${name}/${id}`)));
        }
      })();
    } finally {
      closeDatabase(db);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw new FileStoreError(file, `cannot convert sandbox data file ${file} to SQLite: ${errorMessage(error)}`, {
      cause: error,
    });
  }
}

/**
 * Opens (or starts) the state file: an existing file is loaded (a JSON file of an earlier version is converted), a
 * missing one means an empty state (its folder is created, the file itself only at the first change), a file that is
 * not a sandbox state file throws a FileStoreError naming it and is never overwritten. One process per file.
 */
export function openFileStore(path: string, options: FileStoreOptions = {}): FileStore {
  const file = resolve(path);
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const onError =
    options.onError ?? ((error: FileStoreError) => process.stderr.write(`sandbox: ${error.message} (will retry)\n`));
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new FileStoreError(file, `cannot create the folder of sandbox data file ${file}: ${errorMessage(error)}`, {
      cause: error,
    });
  }
  let db: Database.Database | null = null;
  let collections: StateCollections = new Map();
  if (existsSync(file)) {
    let sqlite: boolean;
    try {
      sqlite = isSqliteFile(file);
    } catch (error) {
      throw new FileStoreError(file, `cannot read sandbox data file ${file}: ${errorMessage(error)}`, { cause: error });
    }
    if (!sqlite) convertJsonFile(file, loadJsonStateFile(file));
    try {
      db = openDatabase(file);
    } catch (error) {
      throw new FileStoreError(file, `cannot open sandbox data file ${file}: ${errorMessage(error)}`, { cause: error });
    }
    try {
      collections = loadDatabase(file, db);
      useForWrites(file, db);
    } catch (error) {
      db.close();
      throw error;
    }
  }
  let nextSeq =
    db === null ? 1 : (db.prepare<[], { seq: number | null }>('SELECT max(seq) AS seq FROM records').get()?.seq ?? 0) + 1;
  const pending = new Map<string, Map<string, Pending>>();
  const views = new Map<string, Collection<unknown>>();
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writes = 0;

  /** The database, created with its schema at the first write. */
  function database(): Database.Database {
    if (db === null) {
      const created = openDatabase(file);
      try {
        useForWrites(file, created);
        createSchema(created);
      } catch (error) {
        created.close();
        throw error;
      }
      db = created;
    }
    return db;
  }

  function write(): void {
    if (pending.size === 0) return;
    try {
      const target = database();
      const remove = target.prepare('DELETE FROM records WHERE collection = ? AND id = ?');
      const upsert = target.prepare(
        'INSERT INTO records (collection, id, seq, value) VALUES (?, ?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET value = excluded.value',
      );
      let seq = nextSeq;
      target.transaction(() => {
        for (const [name, changes] of pending) {
          for (const [id, change] of changes) {
            if (change.json === null || change.moved) remove.run(name, id);
            if (change.json !== null) upsert.run(name, id, (seq += 1), change.json);
          }
        }
      })();
      nextSeq = seq + 1;
    } catch (error) {
      throw new FileStoreError(file, `cannot write sandbox data file ${file}: ${errorMessage(error)}`, { cause: error });
    }
    pending.clear();
    writes += 1;
  }

  function changed(name: string, id: string, json: string | null): void {
    let changes = pending.get(name);
    if (changes === undefined) {
      changes = new Map();
      pending.set(name, changes);
    }
    const before = changes.get(id);
    const moved = json !== null && before !== undefined && (before.json === null || before.moved);
    // A record deleted and set again goes last, after the records first set in this burst: pending keeps that order.
    if (moved) changes.delete(id);
    changes.set(id, { json, moved });
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      try {
        write();
      } catch (error) {
        // Still pending: the next change, flush() or close() tries again.
        if (error instanceof FileStoreError) onError(error);
        else throw error;
      }
    }, debounceMs);
  }

  function assertOpen(): void {
    if (closed) throw new FileStoreError(file, `sandbox data file ${file}: the store is closed`);
  }

  function flush(): void {
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    write();
  }

  return {
    file,
    get writes() {
      return writes;
    },
    collection<T>(name: string): Collection<T> {
      let view = views.get(name);
      if (view === undefined) {
        let records = collections.get(name);
        if (records === undefined) {
          records = new Map<string, unknown>();
          collections.set(name, records);
        }
        const map = records;
        view = {
          get: (id) => map.get(id),
          has: (id) => map.has(id),
          values: () => map.values(),
          set: (id, value) => {
            assertOpen();
            // Encoded now, where the caller can see a value JSON would not give back, rather than in a background write.
            const json = JSON.stringify(encodeValue(value, `${name}/${id}`));
            map.set(id, value);
            changed(name, id, json);
          },
          delete: (id) => {
            assertOpen();
            const deleted = map.delete(id);
            if (deleted) changed(name, id, null);
            return deleted;
          },
        };
        views.set(name, view);
      }
      // Each name is only ever used with one record type (see core/), and records were checked (or decoded) as
      // plain data, so the cast is as sound as the memory store's.
      return view as Collection<T>;
    },
    flush() {
      assertOpen();
      flush();
    },
    close() {
      if (closed) return;
      flush();
      closed = true;
      if (db !== null) closeDatabase(db);
    },
  };
}
