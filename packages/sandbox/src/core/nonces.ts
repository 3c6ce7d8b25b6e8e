import { randomUUID } from 'node:crypto';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Card } from './cards.ts';
import { lookUpFakeNonce } from './fake-nonces.ts';
import type { Collection } from '../store/store.ts';

/** A single-use reference to a tokenized card. */
export interface NonceRecord {
  nonce: string;
  card: Card;
  consumed: boolean;
  customerId: string | null;
  createdAt: number;
}

export class Nonces {
  constructor(private readonly records: Collection<NonceRecord>) {}

  issue(card: Card, customerId: string | null, now: number): NonceRecord {
    const record: NonceRecord = { nonce: randomUUID(), card, consumed: false, customerId, createdAt: now };
    this.records.set(record.nonce, record);
    return record;
  }

  /**
   * The card behind a nonce, checked for use, without consuming it (a sale that fails validation leaves the
   * nonce usable). `path` places the error where the calling operation reports it (e.g. ['transaction']).
   */
  resolve(nonce: string, path: readonly string[], now: Date): { card: Card; record: NonceRecord | null } | ValidationError {
    const fake = lookUpFakeNonce(nonce, now);
    if (fake?.kind === 'card') return { card: fake.card, record: null };
    if (fake?.kind === 'consumed') return consumedError(path);
    if (fake?.kind === 'luhn_invalid') {
      return validationError([...path, 'credit_card'], 'number', '81715', 'Credit card number is invalid.');
    }
    const record = this.records.get(nonce);
    if (record === undefined) {
      return validationError(path, 'payment_method_nonce', '91565', 'Unknown payment_method_nonce.');
    }
    if (record.consumed) return consumedError(path);
    return { card: record.card, record };
  }

  consume(record: NonceRecord | null): void {
    if (record !== null) record.consumed = true;
  }
}

function consumedError(path: readonly string[]): ValidationError {
  return validationError(path, 'payment_method_nonce', '91564', 'Cannot use a payment_method_nonce more than once.');
}
