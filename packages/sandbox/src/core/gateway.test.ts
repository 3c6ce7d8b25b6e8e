import { describe, expect, it } from 'vitest';
import { SandboxGateway } from './gateway.ts';
import type { Authorization } from './fingerprint.ts';
import type { NonceRecord } from './nonces.ts';
import { NONCE_LIFETIME_MS } from './nonces.ts';
import { createMemoryStore } from '../store/memory-store.ts';

// The gateway core with an injected clock: nonce lifetime and the expiry rule at month boundaries.

function setUp(start: string) {
  let now = new Date(start).getTime();
  const store = createMemoryStore();
  const gateway = new SandboxGateway({ merchantId: 'm', publicKey: 'p', privateKey: 'k', store, clock: () => new Date(now) });
  const guest: Authorization = { merchantId: 'm', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };
  const tokenize = (expirationDate = '12/2030'): string => {
    const outcome = gateway.tokenizeCard(guest, { number: '4111111111111111', expirationDate });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.value.nonce;
  };
  return {
    gateway,
    tokenize,
    advance: (ms: number) => void (now += ms),
    storedNonces: () => [...store.collection<NonceRecord>('nonces').inOrder()].map((record) => record.nonce),
  };
}

describe('nonce lifetime', () => {
  it('keeps a nonce usable for 3 hours, then treats it as unknown or expired (91565)', () => {
    const { gateway, tokenize, advance } = setUp('2026-06-15T12:00:00Z');
    const young = tokenize();
    const old = tokenize();
    advance(NONCE_LIFETIME_MS - 1);
    expect(gateway.sale({ amount: '1.00', paymentMethodNonce: young }, null).kind).toBe('success');
    advance(1);
    const late = gateway.sale({ amount: '1.00', paymentMethodNonce: old }, null);
    expect(late.kind === 'invalid' ? late.errors : []).toEqual([
      {
        path: ['transaction'],
        attribute: 'payment_method_nonce',
        code: '91565',
        message: 'Unknown or expired payment_method_nonce.',
      },
    ]);
  });

  it('lets fake nonces live for ever, as on the provider', () => {
    const { gateway, advance } = setUp('2026-06-15T12:00:00Z');
    advance(10 * NONCE_LIFETIME_MS);
    expect(gateway.sale({ amount: '1.00', paymentMethodNonce: 'fake-valid-nonce' }, null).kind).toBe('success');
  });

  it('drops expired nonces when new ones are created, so memory stays bounded', () => {
    const { tokenize, advance, storedNonces } = setUp('2026-06-15T12:00:00Z');
    const first = [tokenize(), tokenize()];
    advance(NONCE_LIFETIME_MS / 2);
    const second = [tokenize(), tokenize()];
    expect(storedNonces()).toEqual([...first, ...second]);
    advance(NONCE_LIFETIME_MS / 2);
    const third = tokenize();
    expect(storedNonces()).toEqual([...second, third]);
    advance(NONCE_LIFETIME_MS);
    const fourth = tokenize();
    expect(storedNonces()).toEqual([fourth]);
  });
});

describe('tokenization expiry rule', () => {
  it("accepts last month's card until that month has ended everywhere (the frames' rule)", () => {
    const { gateway, advance } = setUp('2026-12-01T05:00:00Z'); // still 30 November in the Americas
    const guest: Authorization = { merchantId: 'm', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };
    const card = { number: '4111111111111111', expirationDate: '11/26' };
    expect(gateway.tokenizeCard(guest, card).ok).toBe(true);
    advance(8 * 60 * 60 * 1000); // 13:00 UTC: 1 December in UTC-12 too
    const refused = gateway.tokenizeCard(guest, card);
    expect(refused.ok ? [] : refused.errors.map((error) => error.code)).toEqual(['81710']);
  });
});
