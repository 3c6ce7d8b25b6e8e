import { describe, expect, it } from 'vitest';
import { retryAfterMs } from './http-failures.ts';

describe('Retry-After', () => {
  it('reads seconds and HTTP dates, bounded, with a default when absent or unreadable', () => {
    const now = Date.parse('2026-11-23T12:00:00Z');
    expect(retryAfterMs('3', now)).toBe(3000);
    expect(retryAfterMs('Mon, 23 Nov 2026 12:00:10 GMT', now)).toBe(10_000);
    expect(retryAfterMs('Mon, 23 Nov 2026 11:00:00 GMT', now)).toBe(0);
    expect(retryAfterMs('86400', now)).toBe(60_000);
    expect(retryAfterMs(null, now)).toBe(5000);
    expect(retryAfterMs('soon', now)).toBe(5000);
  });
});
