import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { issueFingerprint, verifyFingerprint } from './fingerprint.ts';

describe('authorization fingerprints', () => {
  const secret = randomBytes(32);
  const authorization = { merchantId: 'm1', customerId: 'c1', expiresAt: 2_000 };

  it('round-trips the merchant, the customer and the expiry', () => {
    expect(verifyFingerprint(secret, issueFingerprint(secret, authorization), 1_000)).toEqual(authorization);
  });

  it('refuses expired, forged, tampered and malformed fingerprints', () => {
    const fingerprint = issueFingerprint(secret, authorization);
    expect(verifyFingerprint(secret, fingerprint, 2_000)).toBeNull();
    expect(verifyFingerprint(randomBytes(32), fingerprint, 1_000)).toBeNull();
    const [payload, signature] = fingerprint.split('.');
    const forged = Buffer.from(JSON.stringify({ m: 'm1', c: 'someone-else', e: 2_000, n: 'x' })).toString('base64url');
    expect(verifyFingerprint(secret, `${forged}.${signature ?? ''}`, 1_000)).toBeNull();
    expect(verifyFingerprint(secret, payload, 1_000)).toBeNull();
    expect(verifyFingerprint(secret, 42, 1_000)).toBeNull();
  });
});
