import type { Collection } from '../store/store.ts';

/** A sweep runs at most this often (sandbox time), and drops at most SWEPT_AT_ONCE records. */
const SWEEP_INTERVAL_MS = 1000;
const SWEPT_AT_ONCE = 64;

/**
 * A collection whose records live `lifetimeMs` from their creation and are added in time order (nonces, device
 * sessions), so that a long-running sandbox keeps only the last lifetime's worth (issue 10: no unbounded state).
 * Each addition first drops expired records, oldest first: the sweep reads them in insertion order, drops at most
 * SWEPT_AT_ONCE (the next addition takes up the rest), and stops at the first live record, whose expiry it remembers:
 * no addition pays for a sweep before then, nor more than once a second (an expired record is refused by `live` whether
 * swept or not). Each record is looked at about once in its life, whatever the number of records.
 */
export class ExpiringRecords<T> {
  /** When the oldest record kept expires (epoch ms), or null when not known: no sweep is needed before then. */
  private nextExpiry: number | null = null;

  constructor(
    private readonly records: Collection<T>,
    private readonly lifetimeMs: number,
    private readonly idOf: (record: T) => string,
    private readonly createdAt: (record: T) => number,
  ) {}

  /** Adds a record made at `now` (one set again later with `update` keeps its place). */
  add(record: T, now: number): void {
    this.sweep(now);
    this.records.set(this.idOf(record), record);
    this.nextExpiry ??= now + this.lifetimeMs;
  }

  /** Saves a change to a record already added (same id: its place and its creation time are kept). */
  update(record: T): void {
    this.records.set(this.idOf(record), record);
  }

  /** The record, or undefined when unknown or expired (an expired one is dropped now). */
  live(id: string, now: number): T | undefined {
    const record = this.records.get(id);
    if (record === undefined || now - this.createdAt(record) < this.lifetimeMs) return record;
    this.records.discard(id);
    return undefined;
  }

  private sweep(now: number): void {
    if (this.nextExpiry !== null && now < this.nextExpiry) return;
    this.nextExpiry = null;
    let swept = 0;
    for (const record of this.records.inOrder()) {
      const expiresAt = this.createdAt(record) + this.lifetimeMs;
      if (now < expiresAt) {
        this.nextExpiry = Math.max(expiresAt, now + SWEEP_INTERVAL_MS);
        return;
      }
      // Left for the next addition, due at once: one request does not pay for a whole backlog. (Left unset, the
      // addition's own expiry was taken for the next sweep's: the rest waited a lifetime, 64 records every 3 hours.)
      if (swept === SWEPT_AT_ONCE) {
        this.nextExpiry = now;
        return;
      }
      this.records.discard(this.idOf(record));
      swept += 1;
    }
  }
}
