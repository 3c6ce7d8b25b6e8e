// The sandbox keeps its state behind this small interface so a persistent store can replace the in-memory one
// later without touching the gateway rules in core/.

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
}
