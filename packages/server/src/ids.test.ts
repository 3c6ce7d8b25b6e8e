import { describe, expect, it } from 'vitest';
import { newId, nowIso } from './ids.ts';

describe('newId', () => {
  it('names what it is, in 20 lowercase characters safe in a URL path', () => {
    expect(newId('pay')).toMatch(/^pay_[0-9a-v]{20}$/);
  });

  it('sorts ids made later after those made before, so new rows go at the end of their indexes', () => {
    const start = Date.UTC(2026, 10, 27);
    const made = Array.from({ length: 50 }, (_, i) => newId('ord', start + i * 7));
    expect([...made].sort()).toEqual(made);
    // Until the year 3084.
    expect(newId('ord', Date.UTC(3084, 0, 1)) > newId('ord', start)).toBe(true);
  });

  it('makes different ids in the same millisecond, sorted in the order they were made', () => {
    const now = Date.now();
    const made = Array.from({ length: 1000 }, () => newId('pay', now));
    expect(new Set(made).size).toBe(1000);
    expect([...made].sort()).toEqual(made);
  });
});

describe('nowIso', () => {
  it('writes what toISOString writes, in the minute it keeps and out of it', () => {
    const start = Date.UTC(2026, 10, 27, 23, 1, 59, 998);
    const times = [start, start + 1, start + 2, start + 60_000, start + 59_999, start + 61_000, start - 1];
    for (let i = 0; i < 2_000; i += 1) times.push(start + Math.floor(Math.random() * 4 * 60_000));
    times.push(
      Date.UTC(1969, 11, 31, 23, 59, 59, 999),
      0,
      Date.UTC(10_000, 0, 1, 0, 0, 0, 5),
      Date.UTC(9999, 11, 31, 23, 59, 59, 1),
    );
    for (const ms of times) expect(nowIso(new Date(ms))).toBe(new Date(ms).toISOString());
  });

  it('refuses an invalid date, as toISOString does', () => {
    expect(() => nowIso(new Date(Number.NaN))).toThrow(RangeError);
  });
});
