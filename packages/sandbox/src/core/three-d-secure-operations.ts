import { randomBytes } from 'node:crypto';
import type { Card } from './cards.ts';
import type { ThreeDSecureBrowser } from './device-data.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import type { Authorization } from './fingerprint.ts';
import type { MerchantSettings } from './merchant-settings.ts';
import type { NonceRecord, Nonces } from './nonces.ts';
import { challengeOutcome, lookupOutcome, threeDSecureInfo } from './three-d-secure.ts';
import type { ThreeDSecureInfo } from './three-d-secure.ts';
import { formatAmount, validateAmount } from './transactions.ts';

// The browser's 3-D Secure 2 flow (client API lookup, the challenge page, the result), as the provider runs it:
// a lookup for a card nonce and an amount either ends at once (frictionless, attempted, unavailable, lookup error,
// not enrolled) with a NEW nonce carrying `threeDSecureInfo`, or asks for a challenge; the challenge page takes
// the one-time code, and the result is again a new nonce. The original nonce stays usable (without 3-D Secure).
// The browser the lookup described (device data) is kept with the result's nonce, and the sale that uses it.

/** A challenge lives this long after the lookup (the page must be answered within it). */
export const CHALLENGE_LIFETIME_MS = 10 * 60 * 1000;

const PATH = ['three_d_secure'] as const;

export interface Challenge {
  /** 128 random bits: whoever holds it can answer the challenge page, as with the issuer's own page. */
  id: string;
  card: Card;
  customerId: string | null;
  /** The customer of the client token that asked for the lookup: only that checkout gets the result. */
  requestedBy: string | null;
  paymentMethodToken: string | null;
  amount: string;
  currencyIsoCode: string;
  /** The shopper's browser as the lookup described it, kept with the result once the code is entered. */
  browser: ThreeDSecureBrowser | null;
  state: 'pending' | 'completed' | 'cancelled';
  /** The nonce handed out once the code is entered. */
  result: NonceRecord | null;
  expiresAt: number;
}

export type LookupResult =
  | { kind: 'complete'; nonce: NonceRecord; info: ThreeDSecureInfo }
  | { kind: 'challenge'; challenge: Challenge; info: ThreeDSecureInfo };

export interface ThreeDSecureContext {
  nonces: Nonces;
  clock: () => Date;
  settings: () => MerchantSettings;
  currencyIsoCode: string;
}

export class ThreeDSecureOperations {
  /** In memory only: a challenge is minutes long, and a restart mid-challenge is a failed one. */
  private readonly challenges = new Map<string, Challenge>();

  constructor(private readonly context: ThreeDSecureContext) {}

  lookup(
    authorization: Authorization,
    nonce: unknown,
    amount: unknown,
    browser: ThreeDSecureBrowser | null = null,
  ): Outcome<LookupResult> {
    if (!this.context.settings().threeDSecure) {
      return invalid([
        validationError(PATH, 'base', 'three_d_secure_not_enabled', '3D Secure is not enabled for this merchant account.'),
      ]);
    }
    const now = this.context.clock();
    const minorUnits = validateAmount(amount, PATH);
    const resolved =
      typeof nonce === 'string' && nonce !== ''
        ? this.context.nonces.resolve(nonce, PATH, now)
        : validationError(PATH, 'payment_method_nonce', '91565', 'Unknown or expired payment_method_nonce.');
    const errors: ValidationError[] = [];
    if (typeof minorUnits !== 'number') errors.push(minorUnits);
    if ('code' in resolved) errors.push(resolved);
    if (typeof minorUnits !== 'number' || 'code' in resolved) return invalid(errors);
    this.sweep(now.getTime());

    const { card } = resolved;
    const customerId = resolved.record?.customerId ?? authorization.customerId;
    const paymentMethodToken = resolved.record?.paymentMethodToken ?? null;
    const outcome = lookupOutcome(card);
    if (outcome === 'challenge') {
      const challenge: Challenge = {
        id: randomBytes(16).toString('hex'),
        card,
        customerId,
        requestedBy: authorization.customerId,
        paymentMethodToken,
        amount: formatAmount(minorUnits),
        currencyIsoCode: this.context.currencyIsoCode,
        browser,
        state: 'pending',
        result: null,
        expiresAt: now.getTime() + CHALLENGE_LIFETIME_MS,
      };
      this.challenges.set(challenge.id, challenge);
      return { ok: true, value: { kind: 'challenge', challenge, info: threeDSecureInfo('challenge_required', card.cardType) } };
    }
    const info = threeDSecureInfo(outcome, card.cardType);
    const issued = this.context.nonces.issue(card, customerId, now.getTime(), paymentMethodToken, { info, browser });
    return { ok: true, value: { kind: 'complete', nonce: issued, info } };
  }

  /** A live challenge (pending or done), for the challenge page; undefined once expired. */
  challenge(id: string): Challenge | undefined {
    const challenge = this.challenges.get(id);
    if (challenge === undefined || challenge.expiresAt <= this.context.clock().getTime()) return undefined;
    return challenge;
  }

  /** The shopper's code: the result is decided and its nonce issued; a challenge is answered once. */
  answer(id: string, code: unknown): Challenge | undefined {
    const challenge = this.challenge(id);
    if (challenge === undefined || challenge.state !== 'pending') return challenge;
    const now = this.context.clock().getTime();
    const outcome = challengeOutcome(challenge.card, typeof code === 'string' ? code.trim() : '');
    const info = threeDSecureInfo(outcome, challenge.card.cardType, true);
    const { card, customerId, paymentMethodToken, browser } = challenge;
    challenge.result = this.context.nonces.issue(card, customerId, now, paymentMethodToken, { info, browser });
    challenge.state = 'completed';
    return challenge;
  }

  cancel(id: string): Challenge | undefined {
    const challenge = this.challenge(id);
    if (challenge?.state === 'pending') challenge.state = 'cancelled';
    return challenge;
  }

  /** The nonce a completed challenge handed out, for the checkout that started it (same merchant and customer). */
  result(authorization: Authorization, id: string): Outcome<NonceRecord> | null {
    const challenge = this.challenge(id);
    if (challenge === undefined || challenge.requestedBy !== authorization.customerId) return null;
    if (challenge.state === 'cancelled') {
      return invalid([
        validationError(PATH, 'base', 'three_d_secure_challenge_cancelled', 'The 3D Secure challenge was cancelled.'),
      ]);
    }
    if (challenge.result === null) {
      return invalid([
        validationError(PATH, 'base', 'three_d_secure_challenge_pending', 'The 3D Secure challenge is not complete.'),
      ]);
    }
    return { ok: true, value: challenge.result };
  }

  private sweep(now: number): void {
    // Oldest first: all live as long, so the first live one ends the sweep.
    for (const [id, challenge] of this.challenges) {
      if (challenge.expiresAt > now) break;
      this.challenges.delete(id);
    }
  }
}
