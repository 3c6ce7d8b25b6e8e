import { describe, expect, it } from 'vitest';
import { createMemoryStore } from '../store/memory-store.ts';
import { ExpiringRecords } from './expiring-records.ts';

// The sweep shared by nonces and device sessions (issue 10: no unbounded state), alone: what one addition drops.

const LIFETIME_MS = 60_000;

interface Made {
  id: string;
  at: number;
}

function records() {
  const collection = createMemoryStore().collection<Made>('made');
  const expiring = new ExpiringRecords(
    collection,
    LIFETIME_MS,
    (made) => made.id,
    (made) => made.at,
  );
  const add = (id: string, at: number): void => expiring.add({ id, at }, at);
  const kept = (): string[] => [...collection.inOrder()].map((made) => made.id);
  return { expiring, add, kept };
}

describe('ExpiringRecords', () => {
  it('drops at most 64 expired records an addition, oldest first, and goes on at the next addition', () => {
    const { add, kept } = records();
    for (let i = 0; i < 100; i += 1) add(`old-${i}`, i);
    const later = LIFETIME_MS + 100;
    add('new-1', later);
    expect(kept()).toHaveLength(100 - 64 + 1);
    expect(kept()[0]).toBe('old-64');
    add('new-2', later);
    expect(kept()).toEqual(['new-1', 'new-2']);
  });

  it('sweeps at most once a second, and only once the oldest kept has expired; live refuses an expired record meanwhile', () => {
    const { expiring, add, kept } = records();
    add('a', 0);
    add('b', 100);
    // Not yet due: the oldest expires at LIFETIME_MS.
    add('c', LIFETIME_MS - 1);
    expect(kept()).toEqual(['a', 'b', 'c']);
    // `a` swept; `b` expires 50 ms later, but the next sweep waits a second.
    add('d', LIFETIME_MS + 50);
    expect(kept()).toEqual(['b', 'c', 'd']);
    add('e', LIFETIME_MS + 200);
    expect(kept()).toEqual(['b', 'c', 'd', 'e']);
    expect(expiring.live('b', LIFETIME_MS + 200)).toBeUndefined();
    expect(kept()).toEqual(['c', 'd', 'e']);
    expect(expiring.live('c', LIFETIME_MS + 200)).toEqual({ id: 'c', at: LIFETIME_MS - 1 });
  });
});
