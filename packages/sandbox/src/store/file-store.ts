import { createHmac, randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';
import { decodeValue, encodeValue } from './json-codec.ts';
import type { JsonValue } from './json-codec.ts';
import type { Collection, Store } from './store.ts';

// The sandbox's state in one JSON file, so that a restarted sandbox still knows the customers and transactions the
// product's database refers to. The whole state is kept in memory (Maps, so insertion order holds) and written
// whole: each set/delete schedules one write a few milliseconds later, so a burst of changes (a sale touches a
// nonce, a transaction and an idempotency key) costs one write. A write goes to a temporary file in the same folder
// (mode 0600), is fsynced, then renamed over the data file: a crash leaves the old state or the new one, never half
// a file. flush()/close() write pending changes synchronously, so a clean shutdown loses nothing.
//
// File layout: {"format":"kassa-sandbox-state","version":2,"collections":{"<name>":[["<id>",<record>],...],...}}.
// Records are [id, record] pairs, not an object keyed by id: JavaScript orders integer-like keys ("42") before the
// others, which would break insertion order. Records go through json-codec.ts (Dates tagged, anything else that
// JSON would change refused).

export const FILE_FORMAT = 'kassa-sandbox-state';
export const FILE_VERSION = 2;
/**
 * Version 1 files hold card number identifiers keyed by a key derived from the private key, which npm start keeps on
 * the same disk: with BIN and last four beside them, they give the card numbers back. Such a file is upgraded when
 * opened (and rewritten at once): every identifier is replaced by a hash of it under a random key that is then
 * forgotten, so cards that shared an identifier still do, and none can be traced back to its number.
 */
const REVERSIBLE_IDENTIFIERS_VERSION = 1;
const DEFAULT_DEBOUNCE_MS = 20;

/** The data file cannot be read, is not a sandbox state file, or cannot be written. Always names the file. */
export class FileStoreError extends Error {
  constructor(
    readonly file: string,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'FileStoreError';
  }
}

export interface FileStoreOptions {
  /** How long a change waits for others before the file is written (default 20 ms). */
  debounceMs?: number;
  /** A background write failed (the changes stay pending; flush/close try again and throw). Default: stderr. */
  onError?: (error: FileStoreError) => void;
}

export interface FileStore extends Store {
  /** Absolute path of the data file. */
  readonly file: string;
  /** Number of times the file has been written (for tests and diagnostics). */
  readonly writes: number;
}

function message(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isMissing(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === 'ENOENT';
}

function corrupt(file: string, why: string, cause?: unknown): FileStoreError {
  return new FileStoreError(
    file,
    `sandbox data file ${file} is not a valid sandbox state file (${why}); it was left untouched: repair it, or move it away to start empty`,
    cause === undefined ? undefined : { cause },
  );
}

/** Replaces, in place, every `uniqueNumberIdentifier` string under `value` (see REVERSIBLE_IDENTIFIERS_VERSION). */
function rekeyCardIdentifiers(value: unknown, key: Buffer): void {
  if (typeof value !== 'object' || value === null || value instanceof Date) return;
  if (Array.isArray(value)) {
    for (const item of value) rekeyCardIdentifiers(item, key);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [name, field] of Object.entries(record)) {
    if (name === 'uniqueNumberIdentifier' && typeof field === 'string') {
      record[name] = createHmac('sha256', key).update(field).digest('hex').slice(0, 32);
    } else {
      rekeyCardIdentifiers(field, key);
    }
  }
}

interface Loaded {
  collections: Map<string, Map<string, unknown>>;
  /** Upgraded from an older version: to be written again now. */
  upgraded: boolean;
}

function load(file: string): Loaded {
  const collections = new Map<string, Map<string, unknown>>();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissing(error)) return { collections, upgraded: false };
    throw new FileStoreError(file, `cannot read sandbox data file ${file}: ${message(error)}`, { cause: error });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `not JSON: ${message(error)}`, error);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw corrupt(file, 'not a JSON object');
  const { format, version, collections: stored } = document as Record<string, unknown>;
  if (format !== FILE_FORMAT) throw corrupt(file, `"format" is not "${FILE_FORMAT}"`);
  const upgraded = version === REVERSIBLE_IDENTIFIERS_VERSION;
  if (version !== FILE_VERSION && !upgraded) {
    throw corrupt(file, `unsupported version ${JSON.stringify(version)}, expected ${FILE_VERSION}`);
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) throw corrupt(file, '"collections" is not an object');
  for (const [name, entries] of Object.entries(stored)) {
    if (!Array.isArray(entries)) throw corrupt(file, `collection "${name}" is not an array`);
    const records = new Map<string, unknown>();
    for (const [index, entry] of (entries as unknown[]).entries()) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') {
        throw corrupt(file, `collection "${name}" entry ${index} is not an [id, record] pair`);
      }
      const [id, record] = entry as [string, unknown];
      if (records.has(id)) throw corrupt(file, `collection "${name}" holds id "${id}" twice`);
      try {
        records.set(id, decodeValue(record, `${name}/${id}`));
      } catch (error) {
        throw corrupt(file, message(error), error);
      }
    }
    collections.set(name, records);
  }
  if (upgraded) {
    const forgotten = randomBytes(32);
    for (const records of collections.values()) rekeyCardIdentifiers([...records.values()], forgotten);
  }
  return { collections, upgraded };
}

/** Writes `text` to `file` atomically: temporary file in the same folder, fsync, rename, fsync of the folder. */
export function writeFileAtomically(file: string, text: string): void {
  const folder = dirname(file);
  const temporary = resolve(folder, `.${basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
  try {
    const fd = openSync(temporary, 'wx', 0o600);
    try {
      fchmodSync(fd, 0o600); // whatever the umask
      writeFileSync(fd, text, 'utf8');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
  // Makes the rename itself durable; not possible everywhere (Windows), where the rename alone has to do.
  try {
    const folderFd = openSync(folder, 'r');
    try {
      fsyncSync(folderFd);
    } finally {
      closeSync(folderFd);
    }
  } catch {
    // best effort
  }
}

/**
 * Opens (or starts) the state file: an existing file is loaded, a missing one means an empty state (its folder is
 * created), a file that is not a sandbox state file throws a FileStoreError naming it and is never overwritten.
 */
export function openFileStore(path: string, options: FileStoreOptions = {}): FileStore {
  const file = resolve(path);
  const debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
  const onError =
    options.onError ?? ((error: FileStoreError) => process.stderr.write(`sandbox: ${error.message} (will retry)\n`));
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new FileStoreError(file, `cannot create the folder of sandbox data file ${file}: ${message(error)}`, { cause: error });
  }
  const { collections, upgraded } = load(file);
  const views = new Map<string, Collection<unknown>>();
  let dirty = upgraded;
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let writes = 0;

  function serialize(): string {
    const parts: string[] = [];
    for (const [name, records] of collections) {
      const lines: string[] = [];
      for (const [id, record] of records) lines.push(JSON.stringify([id, encodeValue(record, `${name}/${id}`)]));
      parts.push(`${JSON.stringify(name)}:[${lines.length === 0 ? '' : `\n${lines.join(',\n')}\n`}]`);
    }
    return `{"format":${JSON.stringify(FILE_FORMAT)},"version":${FILE_VERSION},"collections":{\n${parts.join(',\n')}\n}}\n`;
  }

  function write(): void {
    if (!dirty) return;
    try {
      writeFileAtomically(file, serialize());
    } catch (error) {
      throw new FileStoreError(file, `cannot write sandbox data file ${file}: ${message(error)}`, { cause: error });
    }
    dirty = false;
    writes += 1;
  }

  function changed(): void {
    dirty = true;
    if (timer !== null) return;
    timer = setTimeout(() => {
      timer = null;
      try {
        write();
      } catch (error) {
        // Still dirty: the next change, flush() or close() tries again.
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

  // The old identifiers must not stay on disk a moment longer than needed.
  if (upgraded) write();

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
            // Checked now, where the caller can see the problem, rather than in a background write.
            encodeValue(value, `${name}/${id}`);
            map.set(id, value);
            changed();
          },
          delete: (id) => {
            assertOpen();
            const deleted = map.delete(id);
            if (deleted) changed();
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
    },
  };
}
