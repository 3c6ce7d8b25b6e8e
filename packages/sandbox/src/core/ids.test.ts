import { describe, expect, it } from 'vitest';
import { randomId } from './ids.ts';

describe('randomId', () => {
  it('gives ids of the length asked, of lowercase letters and digits, none twice across refills of its random pool', () => {
    // 10,000 ids of 8 characters draw 80 KB: the 4 KB pool is refilled about 20 times.
    const ids = Array.from({ length: 10_000 }, () => randomId(8));
    expect(ids.every((id) => /^[a-z0-9]{8}$/.test(id))).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(randomId(5000)).toMatch(/^[a-z0-9]{5000}$/);
  });
});
