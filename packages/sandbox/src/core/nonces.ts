import { randomUUID } from 'node:crypto';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Card } from './cards.ts';
import type { ThreeDSecureBrowser } from './device-data.ts';
import { ExpiringRecords } from './expiring-records.ts';
import { lookUpFakeNonce } from './fake-nonces.ts';
import type { ThreeDSecureInfo } from './three-d-secure.ts';
import type { WalletAccount } from './wallets.ts';
import type { Store } from '../store/store.ts';

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
  /**
   * The shopper's browser as that lookup described it: kept with the nonce (so it goes when the nonce expires), and
   * with the transaction of the sale that uses it (device-data.ts).
   */
  threeDSecureBrowser?: ThreeDSecureBrowser;
  /** Set on the nonces the wallet approval pages hand out. */
  wallet?: WalletAccount | null;
  createdAt: number;
}

/** A 3-D Secure result carried by the nonce a lookup or challenge hands out. */
export interface ThreeDSecureResult {
  info: ThreeDSecureInfo;
  browser: ThreeDSecureBrowser | null;
}

export interface ResolvedNonce {
  card: Card;
  /** null for the provider's fixed test nonces. */
  record: NonceRecord | null;
  threeDSecureInfo: ThreeDSecureInfo | null;
  wallet: WalletAccount | null;
}

export class Nonces {
  /** Expired nonces are swept as new ones are issued: a long-running sandbox keeps only the last 3 hours' worth. */
  private readonly records: ExpiringRecords<NonceRecord>;

  constructor(store: Store) {
    this.records = new ExpiringRecords(
      store.collection<NonceRecord>('nonces'),
      NONCE_LIFETIME_MS,
      (record) => record.nonce,
      (record) => record.createdAt,
    );
  }

  issue(
    card: Card,
    customerId: string | null,
    now: number,
    paymentMethodToken: string | null = null,
    threeDSecure: ThreeDSecureResult | null = null,
    wallet: WalletAccount | null = null,
  ): NonceRecord {
    const record: NonceRecord = {
      nonce: randomUUID(),
      card,
      consumed: false,
      customerId,
      paymentMethodToken,
      ...(threeDSecure === null ? {} : { threeDSecureInfo: threeDSecure.info }),
      ...(threeDSecure === null || threeDSecure.browser === null ? {} : { threeDSecureBrowser: threeDSecure.browser }),
      ...(wallet === null ? {} : { wallet }),
      createdAt: now,
    };
    this.records.add(record, now);
    return record;
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
    const record = this.records.live(nonce, now.getTime());
    if (record === undefined) {
      // An expired nonce is as good as unknown, as on the provider (one code, one message for both).
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
    return this.records.live(nonce, now.getTime()) ?? null;
  }

  consume(record: NonceRecord | null): void {
    if (record === null) return;
    record.consumed = true;
    // Set again so that a persistent store saves the change (same key: insertion order is kept).
    this.records.update(record);
  }
}

function consumedError(path: readonly string[]): ValidationError {
  return validationError(path, 'payment_method_nonce', '91564', 'Cannot use a payment_method_nonce more than once.');
}
