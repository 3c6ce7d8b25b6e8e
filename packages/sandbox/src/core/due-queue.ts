import type { Collection, Store } from '../store/store.ts';

// Work that falls due at a time (a settlement, a webhook delivery, a subscription's billing day), kept in a
// collection indexed by its due time, so that it survives a restart and finding what is due reads only what is due
// (an index range, oldest first), whatever the number of records pending; nothing is held in memory.

export interface DueRecord {
  id: string;
  /** Epoch milliseconds, sandbox time. */
  dueAt: number;
}

/** How many due records takeDue answers at most: the callers loop, so a large batch is taken a part at a time. */
const TAKEN_AT_ONCE = 500;

export class DueQueue<T extends DueRecord> {
  private readonly records: Collection<T>;

  constructor(store: Store, name: string) {
    this.records = store.collection<T>(name, { dueAt: (record) => record.dueAt });
  }

  /**
   * Adds the record, or moves it to its new `dueAt`. Deleted and set again, it goes last in insertion order: records
   * due at the same time come out in the order they were scheduled (webhooks of one instant keep their order).
   */
  schedule(record: T): void {
    this.records.delete(record.id);
    this.records.set(record.id, record);
  }

  /** Adds a record known not to be queued (a new id, or has() said so): no look-up of a place to move it from. */
  add(record: T): void {
    this.records.set(record.id, record);
  }

  has(id: string): boolean {
    return this.records.has(id);
  }

  cancel(id: string): void {
    this.records.delete(id);
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  /** When the next record falls due (epoch ms), or null when nothing is pending. */
  nextDueAt(): number | null {
    for (const { key } of this.records.byKey('dueAt')) return key;
    return null;
  }

  /**
   * Removes and answers records due at `now`, earliest first, at most TAKEN_AT_ONCE of them (call again until it
   * answers none); the caller schedules again what must retry.
   */
  takeDue(now: number): T[] {
    const due: T[] = [];
    for (const { id } of this.dueIds(now)) {
      const record = this.records.get(id);
      if (record === undefined) continue;
      this.records.discard(id);
      due.push(record);
    }
    return due;
  }

  /**
   * As takeDue, for a queue whose records hold their id and due time only (settlement, billing): answered from the
   * index, so no record is read (a large batch read each one back and parsed it, past the store's cache).
   */
  takeDueIds(now: number): DueRecord[] {
    const due = this.dueIds(now);
    for (const { id } of due) this.records.discard(id);
    return due;
  }

  /** The first TAKEN_AT_ONCE ids due at `now`, with their due times. */
  private dueIds(now: number): DueRecord[] {
    const due: DueRecord[] = [];
    for (const { id, key } of this.records.byKey('dueAt', { max: now })) {
      due.push({ id, dueAt: key });
      if (due.length === TAKEN_AT_ONCE) break;
    }
    return due;
  }
}
