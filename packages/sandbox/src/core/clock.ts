import type { Collection } from '../store/store.ts';

// The sandbox's own time: the machine's clock plus an offset that tests move forward (the sandbox's test control),
// so that they see a settlement batch, a month's subscription charge or a webhook retry without waiting for it.
// The offset is stored, so time never goes back across a restart (transactions stamped "tomorrow" stay in the past).

interface ClockRecord {
  offsetMs: number;
}

const OFFSET = 'offset';

export class SandboxClock {
  /**
   * The stored offset, read once: only `advance` changes it. Every operation asks the time, and the record, absent
   * until a test moves the clock, was looked for in the store each time (a SQL query: nothing caches an absence).
   */
  private offset: number | null = null;

  constructor(
    private readonly base: () => Date,
    private readonly records: Collection<ClockRecord>,
  ) {}

  private offsetMs(): number {
    this.offset ??= this.records.get(OFFSET)?.offsetMs ?? 0;
    return this.offset;
  }

  now(): Date {
    return new Date(this.base().getTime() + this.offsetMs());
  }

  /** Moves the sandbox's time forward (never back: what happened stays in the past) and answers the new time. */
  advance(ms: number): Date {
    if (!Number.isSafeInteger(ms) || ms < 0) throw new RangeError(`the clock moves forward by whole milliseconds, got ${ms}`);
    this.offset = this.offsetMs() + ms;
    this.records.set(OFFSET, { offsetMs: this.offset });
    return this.now();
  }
}
