import type { BinData } from '../core/cards.ts';
import { validationError } from '../core/errors.ts';
import type { ValidationError } from '../core/errors.ts';
import type { NonceRecord } from '../core/nonces.ts';
import type { SavedMethod, VerificationFailed } from '../core/vault-operations.ts';
import type { ThreeDSecureInfo } from '../core/three-d-secure.ts';
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
  /** Set on the nonces a 3-D Secure lookup or challenge hands out. */
  threeDSecureInfo: ThreeDSecureInfo | null;
}

export interface FieldError {
  field: string;
  code?: string;
  message?: string;
  fieldErrors?: FieldError[];
}

/** The saved-methods list's entries: a tokenized card plus whether it is the default and pays a subscription. */
export interface SavedPaymentMethod extends TokenizedCreditCard {
  default: boolean;
  hasSubscription: boolean;
}

/** What a failed verification answered (the client API's own shape; the checkout shows "verification failed"). */
export interface VerificationSummary {
  status: string;
  processorResponseCode: string | null;
  processorResponseText: string | null;
  gatewayRejectionReason: string | null;
  cvvResponseCode: string;
  avsPostalCodeResponseCode: string;
}

/** `code` names errors of the sandbox's own routes (saved methods); card field errors carry theirs in fieldErrors. */
export interface ClientApiError {
  error: { message: string; code?: string };
  fieldErrors?: FieldError[];
  verification?: VerificationSummary;
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
    threeDSecureInfo: record.threeDSecureInfo ?? null,
  };
}

export function savedPaymentMethod(method: SavedMethod): SavedPaymentMethod {
  return { ...tokenizedCreditCard(method.nonce), default: method.saved.isDefault, hasSubscription: method.hasSubscription };
}

const CVV_VERIFICATION_FAILED = validationError(['credit_card'], 'cvv', '81736', 'CVV verification failed.');
const POSTAL_CODE_VERIFICATION_FAILED = validationError(
  ['credit_card', 'billing_address'],
  'postal_code',
  '81737',
  'Postal code verification failed.',
);

/**
 * A card the "save card" path could not save because its verification failed: 422 with `verification`, and the
 * provider's field codes when the merchant's rules rejected the CVV (81736) or the postal code (81737).
 */
export function verificationFailure({ message, verification }: VerificationFailed): ClientApiError {
  const reason = verification.gatewayRejectionReason;
  const errors = [
    ...(reason === 'cvv' || reason === 'avs_and_cvv' ? [CVV_VERIFICATION_FAILED] : []),
    ...(reason === 'avs' || reason === 'avs_and_cvv' ? [POSTAL_CODE_VERIFICATION_FAILED] : []),
  ];
  return {
    error: { message, code: 'verification_failed' },
    ...(errors.length > 0 ? { fieldErrors: fieldErrors(errors) } : {}),
    verification: {
      status: verification.status,
      processorResponseCode: verification.processorResponse?.code ?? null,
      processorResponseText: verification.processorResponse?.text ?? null,
      gatewayRejectionReason: reason,
      cvvResponseCode: verification.securityCodeResponseCode,
      avsPostalCodeResponseCode: verification.avsPostalCodeResponseCode,
    },
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
