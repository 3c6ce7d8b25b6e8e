import type { BinData } from '../core/cards.ts';
import type { ValidationError } from '../core/errors.ts';
import type { NonceRecord } from '../core/nonces.ts';
import { camelCase } from '../core/case.ts';

// The browser-facing JSON shapes of contracts section 1 (camelCase, as the provider's client API answers).

export interface TokenizedCreditCard {
  nonce: string;
  type: 'CreditCard';
  description: string;
  consumed: boolean;
  details: {
    bin: string;
    cardType: string;
    lastFour: string;
    lastTwo: string;
    expirationMonth: string;
    expirationYear: string;
    cardholderName: string | null;
  };
  binData: BinData;
  threeDSecureInfo: null;
}

export interface FieldError {
  field: string;
  code?: string;
  message?: string;
  fieldErrors?: FieldError[];
}

export interface ClientApiError {
  error: { message: string };
  fieldErrors?: FieldError[];
}

export function tokenizedCreditCard(record: NonceRecord): TokenizedCreditCard {
  const { card } = record;
  const lastTwo = card.last4.slice(-2);
  return {
    nonce: record.nonce,
    type: 'CreditCard',
    description: `ending in ${lastTwo}`,
    consumed: record.consumed,
    details: {
      bin: card.bin,
      cardType: card.cardType,
      lastFour: card.last4,
      lastTwo,
      expirationMonth: card.expirationMonth,
      expirationYear: card.expirationYear,
      cardholderName: card.cardholderName,
    },
    binData: card.binData,
    threeDSecureInfo: null,
  };
}

/** Validation errors -> `fieldErrors` nested by path: creditCard > [number, billingAddress > [postalCode]]. */
export function fieldErrors(errors: readonly ValidationError[]): FieldError[] {
  const root: FieldError[] = [];
  for (const error of errors) {
    let level = root;
    for (const segment of error.path) {
      const field = camelCase(segment);
      let group = level.find((entry) => entry.field === field && entry.fieldErrors !== undefined);
      if (group === undefined) {
        group = { field, fieldErrors: [] };
        level.push(group);
      }
      level = group.fieldErrors ?? [];
    }
    level.push({ field: camelCase(error.attribute), code: error.code, message: error.message });
  }
  return root;
}
