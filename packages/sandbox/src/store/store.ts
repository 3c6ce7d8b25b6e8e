// The sandbox keeps its state behind this small interface: the gateway rules in core/ do not know whether it lives
// in a temporary database (memory-store.ts) or in a data file that survives restarts (file-store.ts). Both keep the
// records in SQLite and read them on demand (sqlite-store.ts), so neither memory nor start-up grows with the state:
// core/ finds records by id, by a declared key, or oldest first a page at a time, never by loading a whole collection.
//
// Rules for core/: records are plain JSON-like data (objects, arrays, strings, finite numbers, booleans, null) plus
// Dates; no Map, Set, bigint, class instance or function. A record changed in place is `set` again so that the store
// saves the change (a record read again later may be another copy of it).

/** A key's value: text (an equality look-up) or a number (also ranges). */
export type KeyValue = string | number;

/**
 * A collection's keys: each names a function giving the value a record is found by (null: not indexed under it).
 * The store keeps them indexed beside the records. A function whose meaning changes must get a new name: the store
 * rebuilds a collection's keys only when their names change.
 */
export type KeyDefinitions<T> = Readonly<Record<string, (record: T) => KeyValue | null>>;

/** One keyed collection of records. */
export interface Collection<T> {
  get(id: string): T | undefined;
  set(id: string, value: T): void;
  delete(id: string): boolean;
  /** Deletes the record if there is one, without reading whether there is (an id just read from a key's index). */
  discard(id: string): void;
  has(id: string): boolean;
  /**
   * Every record in insertion order (a record set again keeps its place; deleted and set again, it goes last), read
   * a page at a time as the caller goes on: stopping early reads no more.
   */
  inOrder(): Iterable<T>;
  /** The records whose key `name` is `value`, in insertion order. */
  withKey(name: string, value: KeyValue): T[];
  /**
   * The ids of the records whose numeric key `name` lies in [min, max] (both optional), by that key, ties in
   * insertion order, with the key's value; read a page at a time as the caller goes on.
   */
  byKey(name: string, range?: { min?: number; max?: number }): Iterable<{ id: string; key: number }>;
}

export interface Store {
  /** The collection `name`; `keys` are declared by its first caller (the one module that owns those records). */
  collection<T>(name: string, keys?: KeyDefinitions<T>): Collection<T>;
  /**
   * A point between two independent changes, in a long run of them (a settlement batch): the store may write what is
   * pending now, so that the run is not held in memory whole. A failed write is reported as a background one is.
   */
  checkpoint(): void;
  /** Saves pending changes now. Throws if they cannot be saved. */
  flush(): void;
  /** Saves pending changes and stops; the store must not be used afterwards. */
  close(): void;
}
