import type { BinData } from '../core/cards.ts';
import { validationError } from '../core/errors.ts';
import type { ValidationError } from '../core/errors.ts';
import type { NonceRecord } from '../core/nonces.ts';
import type { SavedMethod, VerificationFailed } from '../core/vault-operations.ts';
import type { ThreeDSecureInfo } from '../core/three-d-secure.ts';
import { camelCase } from '../core/case.ts';
import { NONCE_TYPE } from '../core/wallets.ts';

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

/** The saved-methods list's entries: a tokenized card or wallet plus whether it is the default and pays a subscription. */
export type SavedPaymentMethod = (TokenizedCreditCard | ReturnType<typeof walletPaymentMethod>) & {
  default: boolean;
  hasSubscription: boolean;
};

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

/** A wallet nonce as the provider's client hands it to the page: its type and the account's details. */
export function walletPaymentMethod(record: NonceRecord) {
  const { wallet, card } = record;
  if (wallet === undefined || wallet === null) throw new Error('not a wallet nonce');
  const base = { nonce: record.nonce, type: NONCE_TYPE[wallet.kind], consumed: record.consumed };
  switch (wallet.kind) {
    case 'paypal_account':
      return {
        ...base,
        description: wallet.payerEmail,
        details: {
          email: wallet.payerEmail,
          payerId: wallet.payerId,
          firstName: wallet.payerFirstName,
          lastName: wallet.payerLastName,
        },
      };
    case 'venmo_account':
      return {
        ...base,
        description: `Venmo Account: ${wallet.username}`,
        details: { username: wallet.username, venmoUserId: wallet.venmoUserId },
      };
    case 'apple_pay_card':
      return {
        ...base,
        description: wallet.paymentInstrumentName,
        details: {
          cardType: card.cardType,
          lastFour: card.last4,
          lastTwo: card.last4.slice(-2),
          paymentInstrumentName: wallet.paymentInstrumentName,
        },
        rawPaymentData: { paymentMethod: { network: card.cardType, displayName: wallet.paymentInstrumentName, type: 'credit' } },
      };
    case 'android_pay_card':
      return {
        ...base,
        description: wallet.sourceDescription,
        details: {
          cardType: wallet.sourceCardType,
          lastFour: wallet.sourceCardLast4,
          lastTwo: wallet.sourceCardLast4.slice(-2),
          isNetworkTokenized: wallet.isNetworkTokenized !== false,
        },
        rawPaymentData: {
          paymentMethodData: {
            type: 'CARD',
            description: wallet.sourceDescription,
            info: { cardNetwork: wallet.sourceCardType.toUpperCase(), cardDetails: wallet.sourceCardLast4 },
          },
        },
      };
  }
}

export function savedPaymentMethod(method: SavedMethod): SavedPaymentMethod {
  const { nonce } = method;
  const entry = nonce.wallet === undefined || nonce.wallet === null ? tokenizedCreditCard(nonce) : walletPaymentMethod(nonce);
  return { ...entry, default: method.saved.isDefault, hasSubscription: method.hasSubscription };
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
