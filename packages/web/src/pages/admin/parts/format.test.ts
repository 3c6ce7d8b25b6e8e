import { describe, expect, it } from 'vitest';
import { formatListDateTime } from './format.ts';

describe('formatListDateTime', () => {
  const now = new Date(2026, 10, 28, 12, 0);

  // Read with plain spaces: within the day and within the time they do not break (U+00A0).
  const read = (text: string) => text.replaceAll('\u00a0', ' ');

  it('leaves the year out for a moment of this year', () => {
    expect(read(formatListDateTime(new Date(2026, 0, 2, 16, 30).toISOString(), now))).toBe('Jan 2, 4:30 PM');
  });

  it('says the year of an earlier one', () => {
    expect(read(formatListDateTime(new Date(2025, 11, 31, 9, 5).toISOString(), now))).toBe('Dec 31, 2025, 9:05 AM');
  });

  it('can break only between the day and the time', () => {
    expect(formatListDateTime(new Date(2025, 11, 31, 9, 5).toISOString(), now).split(' ')).toEqual([
      'Dec\u00a031,\u00a02025,',
      '9:05\u00a0AM',
    ]);
  });
});
