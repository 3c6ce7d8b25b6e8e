// The sandbox keeps its state behind this small interface: the gateway rules in core/ do not know whether it lives
// in memory (memory-store.ts) or in a JSON file that survives restarts (file-store.ts).
//
// Rules for core/: records are plain JSON-like data (objects, arrays, strings, finite numbers, booleans, null) plus
// Dates; no Map, Set, bigint, class instance or function. A record changed in place is `set` again so that a
// persistent store saves the change.

/** One keyed collection of records. */
export interface Collection<T> {
  get(id: string): T | undefined;
  set(id: string, value: T): void;
  delete(id: string): boolean;
  has(id: string): boolean;
  /** In insertion order (as a Map): core/nonces.ts sweeps expired records oldest first. */
  values(): IterableIterator<T>;
}

export interface Store {
  collection<T>(name: string): Collection<T>;
  /** Saves pending changes now (no-op in memory). Throws if they cannot be saved. */
  flush(): void;
  /** Saves pending changes and stops; the store must not be used afterwards. */
  close(): void;
}
