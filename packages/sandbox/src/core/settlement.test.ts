import { describe, expect, it } from 'vitest';
import { SandboxClock } from './clock.ts';
import { DAILY_BATCH, settlementDueAt } from './settlement.ts';
import { createMemoryStore } from '../store/memory-store.ts';

describe('settlementDueAt', () => {
  it('settles in the daily batch at 23:00 UTC: the same day before the cut-off, the next day after it', () => {
    expect(new Date(settlementDueAt(DAILY_BATCH, new Date('2026-11-23T10:00:00Z'))).toISOString()).toBe(
      '2026-11-23T23:00:00.000Z',
    );
    expect(new Date(settlementDueAt(DAILY_BATCH, new Date('2026-11-23T23:00:00Z'))).toISOString()).toBe(
      '2026-11-24T23:00:00.000Z',
    );
    expect(new Date(settlementDueAt(DAILY_BATCH, new Date('2026-12-31T23:30:00Z'))).toISOString()).toBe(
      '2027-01-01T23:00:00.000Z',
    );
  });

  it('settles a fixed delay after submission when one is configured', () => {
    expect(settlementDueAt({ kind: 'delay', ms: 5000 }, new Date('2026-11-23T10:00:00Z'))).toBe(
      Date.parse('2026-11-23T10:00:05Z'),
    );
  });
});

describe('SandboxClock', () => {
  it('runs with the machine clock plus what was added, kept in the store, and never goes back', () => {
    const store = createMemoryStore();
    const base = () => new Date('2026-11-23T10:00:00Z');
    const clock = new SandboxClock(base, store.collection('clock'));
    expect(clock.advance(60_000).toISOString()).toBe('2026-11-23T10:01:00.000Z');
    expect(new SandboxClock(base, store.collection('clock')).now().toISOString()).toBe('2026-11-23T10:01:00.000Z');
    expect(() => clock.advance(-1)).toThrow(RangeError);
  });

  it('reads its offset from the store once, not at every reading of the time', () => {
    const records = createMemoryStore().collection<{ offsetMs: number }>('clock');
    let reads = 0;
    const counted = {
      ...records,
      get: (id: string) => {
        reads += 1;
        return records.get(id);
      },
    };
    const clock = new SandboxClock(() => new Date('2026-11-23T10:00:00Z'), counted);
    for (let index = 0; index < 5; index += 1) clock.now();
    clock.advance(1000);
    expect(clock.now().toISOString()).toBe('2026-11-23T10:00:01.000Z');
    expect(reads).toBe(1);
  });
});
