import { describe, expect, it } from 'vitest';
import { formatListDateTime } from './format.ts';

describe('formatListDateTime', () => {
  const now = new Date(2026, 10, 28, 12, 0);

  it('leaves the year out for a moment of this year', () => {
    expect(formatListDateTime(new Date(2026, 0, 2, 16, 30).toISOString(), now)).toBe('Jan 2, 4:30 PM');
  });

  it('says the year of an earlier one', () => {
    expect(formatListDateTime(new Date(2025, 11, 31, 9, 5).toISOString(), now)).toBe('Dec 31, 2025, 9:05 AM');
  });
});
