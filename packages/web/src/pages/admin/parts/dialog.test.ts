import { describe, expect, it } from 'vitest';
import { renewsKey } from './dialog.tsx';

describe("an admin dialog's Idempotency-Key", () => {
  it('is renewed by a final refusal, so other input is a new request', () => {
    expect(renewsKey({ status: 422, code: 'refund_amount_too_large' })).toBe(true);
    expect(renewsKey({ status: 409, code: 'dispute_not_open' })).toBe(true);
  });

  it('is kept when the answer was lost or the request is still running, so a retry cannot act twice', () => {
    expect(renewsKey({ status: 0, code: 'unexpected_error' })).toBe(false);
    expect(renewsKey({ status: 502, code: 'gateway_unavailable' })).toBe(false);
    expect(renewsKey({ status: 409, code: 'idempotency_key_in_use' })).toBe(false);
  });

  it("is kept when the key's first request differed (it may have been carried out, its answer lost)", () => {
    expect(renewsKey({ status: 422, code: 'idempotency_key_reused' })).toBe(false);
  });
});
