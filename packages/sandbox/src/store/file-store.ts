import { randomBytes } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  existsSync,
  fdatasync,
  fdatasyncSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { encodeValue } from './json-codec.ts';
import { loadJsonStateFile } from './json-file.ts';
import type { StateCollections } from './json-file.ts';
import { checkVersion, createSchema, FILE_VERSION, upgradeFrom3 } from './schema.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { SqliteStore } from './sqlite-store.ts';
import { corrupt, errorMessage, FileStoreError } from './store-error.ts';

export { FileStoreError } from './store-error.ts';
export { FILE_VERSION } from './schema.ts';

// The sandbox's state in one SQLite file, so that a restarted sandbox still knows the customers and transactions the
// product's database refers to. Nothing is read at start: records are read when asked for (sqlite-store.ts), so
// start-up and memory do not grow with the state (issue 10: the version 3 store read every record into memory at
// start, 170 MiB after 45,000 payments and a minute to start). Each set/delete is written a few milliseconds later,
// only the records that changed, in one transaction per burst of changes (a sale touches a nonce, a transaction and
// an idempotency key), so a change costs the same whatever the size of the state. A burst is committed to SQLite's
// write-ahead log (synchronous=NORMAL: a killed process loses nothing committed, the system has it), then the log is
// flushed to the disk in the thread pool (logFlusher), not on the event loop: a crash leaves the state before or after
// a burst, never half of one. flush()/close() write pending changes and flush the log synchronously, so a clean
// shutdown loses nothing.
//
// Tables: schema.ts. A JSON state file of an earlier version (json-file.ts) is converted when opened: the SQLite file
// is built beside it and renamed over it; a SQLite file of version 3 is upgraded in place (schema.ts).

const SQLITE_HEADER = 'SQLite format 3\0';

export interface FileStoreOptions {
  /** How long a change waits for others before it is written (default 20 ms). */
  debounceMs?: number;
  /** A background write failed (the changes stay pending; flush/close try again and throw). Default: stderr. */
  onError?: (error: FileStoreError) => void;
  /** At most this many records read are kept decoded (sqlite-store.ts's default). */
  cachedRecords?: number;
}

export interface FileStore extends SqliteStore {
  /** Absolute path of the data file. */
  readonly file: string;
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
 * log, and no flush in a commit (logFlusher flushes the log). A checkpoint (SQLite's own, in the commit that takes the
 * log past 1,000 pages) still flushes the log before it copies it into the file, and the file after.
 */
function useForWrites(file: string, db: Database.Database): void {
  chmodSync(file, 0o600);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
}

/**
 * Flushes the write-ahead log to the disk (fdatasync on a descriptor of its own: it flushes the file, whoever wrote
 * it). `later` does it in libuv's thread pool, so the event loop serves requests meanwhile (issue 10: at synchronous=FULL
 * each burst's commit held the event loop 4-9 ms at its median and 46-207 ms at its 99th percentile, 1.2-3.2 ms per
 * payment, on this machine); the bursts committed while one runs share the next. `now` does it before returning.
 * `writes` counts the bursts committed: nothing to flush when none came since the last flush.
 */
function logFlusher(
  logFile: string,
  writes: () => number,
  onError: (cause: unknown) => void,
): { later: () => void; now: () => void; close: () => void } {
  let descriptor: number | null = null;
  let flushed = 0;
  let running = false;
  let again = false;
  let closed = false;
  const open = (): number => (descriptor ??= openSync(logFile, 'r'));
  const release = (): void => {
    if (descriptor !== null) closeSync(descriptor);
    descriptor = null;
  };
  const later = (): void => {
    if (closed || writes() === flushed) return;
    if (running) {
      again = true;
      return;
    }
    const upTo = writes();
    running = true;
    try {
      fdatasync(open(), (error) => {
        running = false;
        if (error !== null) onError(error);
        else flushed = Math.max(flushed, upTo);
        if (closed) release();
        else if (again) {
          again = false;
          later();
        }
      });
    } catch (error) {
      running = false;
      onError(error);
    }
  };
  return {
    later,
    now: () => {
      if (writes() === flushed) return;
      const upTo = writes();
      fdatasyncSync(open());
      flushed = upTo;
    },
    close: () => {
      closed = true;
      // A flush still running in the pool closes the descriptor when it ends.
      if (!running) release();
    },
  };
}

/**
 * Closes the database back to a single file: leaving the write-ahead log checkpoints it and removes it, so a stopped
 * sandbox leaves one self-contained file.
 */
function closeDatabase(db: Database.Database): void {
  db.pragma('journal_mode = DELETE');
  db.close();
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
 * Opens (or starts) the state file: an existing file is opened (a JSON file of an earlier version is converted, a
 * SQLite file of version 3 upgraded), a missing one means an empty state (its folder is created, the file itself only
 * at the first change), a file that is not a sandbox state file throws a FileStoreError naming it and is never
 * overwritten. One process per file.
 */
export function openFileStore(path: string, options: FileStoreOptions = {}): FileStore {
  const file = resolve(path);
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
      const checked = checkVersion(db);
      if ('problem' in checked) throw corrupt(file, checked.problem);
      useForWrites(file, db);
      if (checked.version !== FILE_VERSION) upgradeFrom3(db);
    } catch (error) {
      db.close();
      throw error instanceof FileStoreError
        ? error
        : new FileStoreError(file, `cannot upgrade sandbox data file ${file}: ${errorMessage(error)}`, { cause: error });
    }
  }
  const writeError = (cause: unknown): FileStoreError =>
    new FileStoreError(file, `cannot write sandbox data file ${file}: ${errorMessage(cause)}`, { cause });
  const log = logFlusher(
    `${file}-wal`,
    () => store.writes,
    (cause) => onError(writeError(cause)),
  );
  const store: SqliteStore = openSqliteStore({
    database: db,
    create: () => {
      const created = openDatabase(file);
      try {
        useForWrites(file, created);
        createSchema(created);
      } catch (error) {
        created.close();
        throw error;
      }
      return created;
    },
    ...(options.debounceMs === undefined ? {} : { debounceMs: options.debounceMs }),
    ...(options.cachedRecords === undefined ? {} : { cachedRecords: options.cachedRecords }),
    onError: (error) =>
      onError(error instanceof FileStoreError ? error : new FileStoreError(file, error.message, { cause: error })),
    writeError,
    closedError: () => new FileStoreError(file, `sandbox data file ${file}: the store is closed`),
    closeDatabase: (closing) => {
      log.close();
      closeDatabase(closing);
    },
    durable: (now) => {
      if (!now) return log.later();
      try {
        log.now();
      } catch (error) {
        throw writeError(error);
      }
    },
  });
  return Object.assign(store, { file }) as FileStore;
}
