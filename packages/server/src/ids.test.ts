import { describe, expect, it } from 'vitest';
import { newId } from './ids.ts';

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

  it('makes different ids in the same millisecond', () => {
    const now = Date.now();
    expect(new Set(Array.from({ length: 1000 }, () => newId('pay', now))).size).toBe(1000);
  });
});
