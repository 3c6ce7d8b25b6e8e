import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How the browser's saved cards are saved (clientToken.generate's options; customer-bound tokens only). */
export interface SaveCardOptions {
  verifyCard: boolean;
  failOnDuplicatePaymentMethod: boolean;
  failOnDuplicatePaymentMethodForCustomer: boolean;
  makeDefault: boolean;
}

const SAVE_CARD_OPTIONS = [
  'verifyCard',
  'failOnDuplicatePaymentMethod',
  'failOnDuplicatePaymentMethodForCustomer',
  'makeDefault',
] as const;

/** What an authorization fingerprint grants: one merchant, optionally one customer, until it expires. */
export interface Authorization {
  merchantId: string;
  customerId: string | null;
  expiresAt: number;
  /** Unset: a card the browser saves is saved without verification nor duplicate check. */
  saveCard?: SaveCardOptions;
}

export const FINGERPRINT_LIFETIME_MS = 24 * 60 * 60 * 1000;

interface Claims {
  m: string;
  c: string | null;
  e: number;
  n: string;
  o?: SaveCardOptions;
}

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url');
}

/** Signs `payload.signature`; opaque to the browser, checked by the client API on every call. */
export function issueFingerprint(secret: Buffer, authorization: Authorization): string {
  const claims: Claims = {
    m: authorization.merchantId,
    c: authorization.customerId,
    e: authorization.expiresAt,
    // A nonce so that two tokens issued in the same millisecond still differ.
    n: randomBytes(8).toString('base64url'),
    ...(authorization.saveCard === undefined ? {} : { o: authorization.saveCard }),
  };
  const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `${payload}.${sign(secret, payload)}`;
}

/** The authorization a fingerprint carries, or null when it is malformed, forged or expired. */
export function verifyFingerprint(secret: Buffer, fingerprint: unknown, now: number): Authorization | null {
  if (typeof fingerprint !== 'string') return null;
  const [payload, signature, extra] = fingerprint.split('.');
  if (payload === undefined || signature === undefined || extra !== undefined) return null;
  const expected = Buffer.from(sign(secret, payload));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  let claims: unknown;
  try {
    claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof claims !== 'object' || claims === null) return null;
  const { m, c, e, o } = claims as Partial<Claims>;
  if (typeof m !== 'string' || typeof e !== 'number' || (c !== null && typeof c !== 'string')) return null;
  if (e <= now) return null;
  if (
    o !== undefined &&
    (typeof o !== 'object' || o === null || SAVE_CARD_OPTIONS.some((name) => typeof o[name] !== 'boolean'))
  ) {
    return null;
  }
  return { merchantId: m, customerId: c, expiresAt: e, ...(o === undefined ? {} : { saveCard: o }) };
}
