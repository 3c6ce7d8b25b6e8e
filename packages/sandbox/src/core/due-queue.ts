import type { Collection } from '../store/store.ts';

// Work that falls due at a time (a settlement, a webhook delivery, a subscription's billing day), kept in a
// collection so it survives a restart, and in a binary min-heap so that finding what is due costs O(log n) per item
// instead of a scan of everything pending. The heap is rebuilt from the collection at start; an entry whose record
// was removed or rescheduled since is skipped when it comes up (lazy deletion).

export interface DueRecord {
  id: string;
  /** Epoch milliseconds, sandbox time. */
  dueAt: number;
}

interface HeapEntry {
  dueAt: number;
  /** Ties (same dueAt) come out in the order they were scheduled: webhooks of one instant keep their order. */
  seq: number;
  id: string;
}

export class DueQueue<T extends DueRecord> {
  private readonly heap: HeapEntry[] = [];
  private seq = 0;

  constructor(private readonly records: Collection<T>) {
    for (const record of records.values()) this.push({ dueAt: record.dueAt, seq: this.seq++, id: record.id });
  }

  /** Adds the record, or moves it to its new `dueAt`. */
  schedule(record: T): void {
    this.records.set(record.id, record);
    this.push({ dueAt: record.dueAt, seq: this.seq++, id: record.id });
  }

  cancel(id: string): void {
    this.records.delete(id);
  }

  get(id: string): T | undefined {
    return this.records.get(id);
  }

  /** When the next record falls due (epoch ms), or null when nothing is pending. */
  nextDueAt(): number | null {
    this.dropStale();
    return this.heap[0]?.dueAt ?? null;
  }

  /** Removes and answers the records due at `now`, earliest first; the caller schedules again what must retry. */
  takeDue(now: number): T[] {
    const due: T[] = [];
    for (;;) {
      this.dropStale();
      const top = this.heap[0];
      if (top === undefined || top.dueAt > now) return due;
      this.pop();
      const record = this.records.get(top.id);
      if (record === undefined) continue;
      this.records.delete(top.id);
      due.push(record);
    }
  }

  private dropStale(): void {
    for (;;) {
      const top = this.heap[0];
      if (top === undefined || this.records.get(top.id)?.dueAt === top.dueAt) return;
      this.pop();
    }
  }

  private push(entry: HeapEntry): void {
    const heap = this.heap;
    heap.push(entry);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(entry, heap[parent] as HeapEntry)) break;
      heap[index] = heap[parent] as HeapEntry;
      index = parent;
    }
    heap[index] = entry;
  }

  private pop(): void {
    const heap = this.heap;
    const last = heap.pop();
    if (last === undefined || heap.length === 0) return;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child = right < heap.length && before(heap[right] as HeapEntry, heap[left] as HeapEntry) ? right : left;
      if (!before(heap[child] as HeapEntry, last)) break;
      heap[index] = heap[child] as HeapEntry;
      index = child;
    }
    heap[index] = last;
  }
}

function before(a: HeapEntry, b: HeapEntry): boolean {
  return a.dueAt < b.dueAt || (a.dueAt === b.dueAt && a.seq < b.seq);
}
