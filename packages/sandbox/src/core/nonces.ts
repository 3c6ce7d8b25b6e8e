import { randomUUID } from 'node:crypto';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Card } from './cards.ts';
import { lookUpFakeNonce } from './fake-nonces.ts';
import type { ThreeDSecureInfo } from './three-d-secure.ts';
import type { WalletAccount } from './wallets.ts';
import type { Collection, Store } from '../store/store.ts';

/** The provider's nonces expire 3 hours after they are created. */
export const NONCE_LIFETIME_MS = 3 * 60 * 60 * 1000;

/** A single-use reference to a tokenized card. */
export interface NonceRecord {
  nonce: string;
  card: Card;
  consumed: boolean;
  customerId: string | null;
  /** Set when the nonce stands for a saved card (paymentMethodNonce.create, the saved-methods list, vaulting). */
  paymentMethodToken?: string | null;
  /** The result of a 3-D Secure lookup or challenge: set on the new nonce those hand out. */
  threeDSecureInfo?: ThreeDSecureInfo | null;
  /** Set on the nonces the wallet approval pages hand out. */
  wallet?: WalletAccount | null;
  createdAt: number;
}

/** A sweep of expired nonces runs at most this often (sandbox time), and drops at most SWEPT_AT_ONCE of them. */
const SWEEP_INTERVAL_MS = 1000;
const SWEPT_AT_ONCE = 64;

function expired(record: NonceRecord, now: number): boolean {
  return now - record.createdAt >= NONCE_LIFETIME_MS;
}

export interface ResolvedNonce {
  card: Card;
  /** null for the provider's fixed test nonces. */
  record: NonceRecord | null;
  threeDSecureInfo: ThreeDSecureInfo | null;
  wallet: WalletAccount | null;
}

export class Nonces {
  private readonly records: Collection<NonceRecord>;
  /** When the oldest nonce kept expires (epoch ms), or null when not known: no sweep is needed before then. */
  private nextExpiry: number | null = null;

  constructor(store: Store) {
    this.records = store.collection<NonceRecord>('nonces');
  }

  issue(
    card: Card,
    customerId: string | null,
    now: number,
    paymentMethodToken: string | null = null,
    threeDSecureInfo: ThreeDSecureInfo | null = null,
    wallet: WalletAccount | null = null,
  ): NonceRecord {
    this.sweep(now);
    const record: NonceRecord = {
      nonce: randomUUID(),
      card,
      consumed: false,
      customerId,
      paymentMethodToken,
      ...(threeDSecureInfo === null ? {} : { threeDSecureInfo }),
      ...(wallet === null ? {} : { wallet }),
      createdAt: now,
    };
    this.records.set(record.nonce, record);
    this.nextExpiry ??= now + NONCE_LIFETIME_MS;
    return record;
  }

  /**
   * Drops expired nonces, oldest first, so that a long-running sandbox keeps only the last 3 hours' worth. The
   * sweep reads the nonces in insertion order, drops at most SWEPT_AT_ONCE, and stops at the first live
   * nonce, whose expiry it remembers: no new nonce pays for a sweep before then, nor more than once a second (an
   * expired nonce is refused whether swept or not). Each nonce is looked at about once in its life, whatever the
   * number of nonces.
   */
  private sweep(now: number): void {
    if (this.nextExpiry !== null && now < this.nextExpiry) return;
    this.nextExpiry = null;
    let swept = 0;
    // Oldest first: nonces are created in time order, and one set again (consumed) keeps its place.
    for (const record of this.records.inOrder()) {
      if (!expired(record, now)) {
        this.nextExpiry = Math.max(record.createdAt + NONCE_LIFETIME_MS, now + SWEEP_INTERVAL_MS);
        return;
      }
      // Left for the next nonce: one tokenization does not pay for a whole backlog.
      if (swept === SWEPT_AT_ONCE) return;
      this.records.delete(record.nonce);
      swept += 1;
    }
  }

  /**
   * The card behind a nonce, checked for use, without consuming it (a sale that fails validation leaves the
   * nonce usable). `path` places the error where the calling operation reports it (e.g. ['transaction']).
   */
  resolve(nonce: string, path: readonly string[], now: Date): ResolvedNonce | ValidationError {
    const fake = lookUpFakeNonce(nonce, now);
    if (fake?.kind === 'card') {
      return { card: fake.card, record: null, threeDSecureInfo: fake.threeDSecureInfo ?? null, wallet: fake.wallet ?? null };
    }
    if (fake?.kind === 'consumed') return consumedError(path);
    if (fake?.kind === 'luhn_invalid') {
      return validationError([...path, 'credit_card'], 'number', '81715', 'Credit card number is invalid.');
    }
    const record = this.records.get(nonce);
    if (record === undefined || expired(record, now.getTime())) {
      // An expired nonce is as good as unknown, as on the provider (one code, one message for both).
      if (record !== undefined) this.records.delete(nonce);
      return validationError(path, 'payment_method_nonce', '91565', 'Unknown or expired payment_method_nonce.');
    }
    if (record.consumed) return consumedError(path);
    return { card: record.card, record, threeDSecureInfo: record.threeDSecureInfo ?? null, wallet: record.wallet ?? null };
  }

  /**
   * paymentMethodNonce.find: what a nonce stands for, used or not (the provider answers consumed nonces too, with
   * `consumed: true`), without using it; null when unknown or expired. A fixed test nonce is described afresh.
   */
  describe(nonce: string, now: Date): NonceRecord | null {
    const fake = lookUpFakeNonce(nonce, now);
    if (fake?.kind === 'card') {
      const { card, wallet } = fake;
      return {
        nonce,
        card,
        consumed: false,
        customerId: null,
        ...(wallet === undefined ? {} : { wallet }),
        createdAt: now.getTime(),
      };
    }
    const record = this.records.get(nonce);
    return record === undefined || expired(record, now.getTime()) ? null : record;
  }

  consume(record: NonceRecord | null): void {
    if (record === null) return;
    record.consumed = true;
    // Set again so that a persistent store saves the change (same key: insertion order is kept).
    this.records.set(record.nonce, record);
  }
}

function consumedError(path: readonly string[]): ValidationError {
  return validationError(path, 'payment_method_nonce', '91564', 'Cannot use a payment_method_nonce more than once.');
}
