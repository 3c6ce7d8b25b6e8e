import { describe, expect, it } from 'vitest';
import { retryAfterMs, tokenizeFailure } from './http-failures.ts';

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

describe("a tokenization's error answer", () => {
  const answer = (status: number, body: unknown = {}, retryAfter: string | null = null) => ({ status, retryAfter, body });
  const rejecting = (...errors: Array<{ field: string; code: string }>) => ({
    error: { message: 'Credit card is invalid' },
    fieldErrors: [{ field: 'creditCard', fieldErrors: errors }],
  });

  it('tells 401, 403, 429 (with its Retry-After) and the rest apart', () => {
    expect(tokenizeFailure(answer(401))).toEqual({ code: 'authorization', message: 'The authorization is invalid or expired.' });
    expect(tokenizeFailure(answer(403))).toMatchObject({ code: 'forbidden' });
    expect(tokenizeFailure(answer(429, {}, '3'))).toMatchObject({ code: 'rate_limited', retryAfterMs: 3000 });
    expect(tokenizeFailure(answer(429, null))).toMatchObject({ code: 'rate_limited', retryAfterMs: 5000 });
    expect(tokenizeFailure(answer(503, null))).toEqual({ code: 'gateway', message: 'The gateway answered 503.' });
    expect(tokenizeFailure(answer(201, {}))).toMatchObject({ code: 'gateway' });
  });

  it('reads a 422: a failed verification, a card already saved, a brand refused, else the fields it names', () => {
    expect(tokenizeFailure(answer(422, { ...rejecting(), verification: { status: 'processor_declined' } }))).toMatchObject({
      code: 'verification_failed',
    });
    for (const code of ['81724', '81763']) {
      expect(tokenizeFailure(answer(422, rejecting({ field: 'number', code })))).toEqual({
        code: 'duplicate_payment_method',
        message: 'The card is already saved.',
        fields: ['number'],
      });
    }
    expect(tokenizeFailure(answer(422, rejecting({ field: 'number', code: '81703' })))).toMatchObject({
      code: 'unsupported_card_type',
      fields: ['number'],
    });
    const fields = rejecting(
      { field: 'expirationMonth', code: '81712' },
      { field: 'cvv', code: '81707' },
      { field: 'somethingElse', code: '1' },
    );
    expect(tokenizeFailure(answer(422, fields))).toEqual({
      code: 'invalid_fields',
      message: 'The gateway refused some card fields.',
      fields: ['expirationDate', 'cvv'],
    });
    expect(tokenizeFailure(answer(422, null))).toEqual({
      code: 'invalid_fields',
      message: 'The gateway refused some card fields.',
      fields: [],
    });
  });
});
