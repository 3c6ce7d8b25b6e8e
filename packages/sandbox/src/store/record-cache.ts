/**
 * The records read last, by collection and id, at most `capacity` of them (the least recently used goes first): a
 * record read again soon (the nonce a sale uses, the transaction it settles) costs no SQL nor JSON parse, and the
 * same object comes back while it is cached.
 */
export class RecordCache {
  private readonly records = new Map<string, unknown>();

  constructor(private readonly capacity: number) {}

  get size(): number {
    return this.records.size;
  }

  get(key: string): unknown {
    const record = this.records.get(key);
    if (record !== undefined) {
      // Most recently used last: a Map keeps insertion order.
      this.records.delete(key);
      this.records.set(key, record);
    }
    return record;
  }

  set(key: string, record: unknown): void {
    if (this.capacity <= 0) return;
    this.records.delete(key);
    this.records.set(key, record);
    if (this.records.size > this.capacity) {
      const oldest = this.records.keys().next();
      if (oldest.done !== true) this.records.delete(oldest.value);
    }
  }

  delete(key: string): void {
    this.records.delete(key);
  }
}
