import { randomId } from './ids.ts';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Card } from './cards.ts';
import type { Verification } from './verification.ts';
import type { WalletAccount } from './wallets.ts';
import type { Collection, Store } from '../store/store.ts';

// The vault: payment methods saved for a customer under a token. A saved card is the tokenized Card (BIN, last four,
// expiry, the keyed number hash; never the number nor the CVV) plus its owner, whether it is the customer's default,
// and its latest verification. Duplicates are found by the number hash (the provider's uniqueNumberIdentifier). A saved
// wallet (PayPal or Venmo account, Apple Pay or Google Pay card) is the same record with the wallet account set: the
// card under it is the one its nonce charged, which only the wallet's own details show.

export interface VaultedCard {
  token: string;
  customerId: string;
  card: Card;
  isDefault: boolean;
  /** The verification run when the card was saved with `verifyCard`, or null. */
  verification: Verification | null;
  /** A saved wallet's account; unset or null for a card (records of earlier versions are all cards). */
  wallet?: WalletAccount | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface VaultOptions {
  token: string | null;
  makeDefault: boolean;
  verification: Verification | null;
  wallet?: WalletAccount | null;
}

/** How a duplicate is looked for: anywhere in the merchant's vault (81724) or among this customer's cards (81763). */
export type DuplicateCheck = 'vault' | 'customer' | null;

const TOKEN = /^[A-Za-z0-9_-]{1,36}$/;

export class PaymentMethods {
  private readonly records: Collection<VaultedCard>;

  constructor(store: Store) {
    this.records = store.collection<VaultedCard>('payment-methods', {
      customerId: (saved) => saved.customerId,
      // A wallet's card is not the shopper's card number (a device token, or none the merchant sees): never a duplicate.
      cardNumber: (saved) => ((saved.wallet ?? null) === null ? saved.card.uniqueNumberIdentifier : null),
    });
  }

  find(token: string): VaultedCard | undefined {
    return this.records.get(token);
  }

  /** In the order they were saved. */
  forCustomer(customerId: string): VaultedCard[] {
    return this.records.withKey('customerId', customerId);
  }

  /** A token for a new card: the one asked for (checked), or a fresh one. */
  checkToken(token: string | null, path: readonly string[]): string | ValidationError {
    if (token === null) return this.freshToken();
    if (!TOKEN.test(token)) return validationError(path, 'token', '91718', 'Token is invalid.');
    if (this.records.has(token)) return validationError(path, 'token', '91719', 'Token is already in use.');
    return token;
  }

  freshToken(): string {
    let token: string;
    do token = randomId(7);
    while (this.records.has(token));
    return token;
  }

  duplicateError(card: Card, customerId: string, check: DuplicateCheck, path: readonly string[]): ValidationError | null {
    if (check === null) return null;
    const same = this.records.withKey('cardNumber', card.uniqueNumberIdentifier);
    if (check === 'vault' && same.length > 0) {
      return validationError(path, 'number', '81724', 'Duplicate card exists in the vault.');
    }
    if (check === 'customer' && same.some((saved) => saved.customerId === customerId)) {
      return validationError(path, 'number', '81763', 'Duplicate card exists in the vault for the customer.');
    }
    return null;
  }

  /** Saves a card (or wallet); the customer's first method, or one saved with makeDefault, becomes the default. */
  add(customerId: string, card: Card, token: string, options: Omit<VaultOptions, 'token'>, now: Date): VaultedCard {
    const others = this.forCustomer(customerId);
    const saved: VaultedCard = {
      token,
      customerId,
      card,
      isDefault: others.length === 0,
      verification: options.verification === null ? null : { ...options.verification, paymentMethodToken: token },
      ...(options.wallet === undefined || options.wallet === null ? {} : { wallet: options.wallet }),
      createdAt: now,
      updatedAt: now,
    };
    this.records.set(token, saved);
    if (options.makeDefault) this.makeDefault(saved, now);
    return saved;
  }

  makeDefault(saved: VaultedCard, now: Date): void {
    for (const other of this.forCustomer(saved.customerId)) {
      if (other.isDefault === (other.token === saved.token)) continue;
      other.isDefault = other.token === saved.token;
      other.updatedAt = now;
      this.records.set(other.token, other);
    }
  }

  /** Changes the record in place and saves it again (a persistent store writes it). */
  save(saved: VaultedCard, now: Date): void {
    saved.updatedAt = now;
    this.records.set(saved.token, saved);
  }

  /** Removes a card; when it was the default, the customer's oldest remaining card becomes the default. */
  delete(token: string, now: Date): boolean {
    const saved = this.records.get(token);
    if (saved === undefined) return false;
    this.records.delete(token);
    const [next] = this.forCustomer(saved.customerId);
    if (saved.isDefault && next !== undefined) this.makeDefault(next, now);
    return true;
  }

  deleteForCustomer(customerId: string): void {
    for (const saved of this.forCustomer(customerId)) this.records.delete(saved.token);
  }
}
