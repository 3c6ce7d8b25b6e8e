import { createHmac } from 'node:crypto';
import {
  checkExpirationDate,
  luhnValid,
  POSTAL_CODE_MAX_LENGTH,
  stripNumber,
  validateCardholderName,
  validateCvv,
  validateNumber,
  validatePostalCode,
} from '../rules/card-fields.ts';
import type { CardCandidate, ExpiryProblem } from '../rules/card-fields.ts';
import { invalid, validationError } from './errors.ts';
import { THREE_D_SECURE_TEST_CARDS } from './three-d-secure.ts';
import type { ThreeDSecureScenario } from './three-d-secure.ts';
import type { Outcome, ValidationError } from './errors.ts';

/** Card brands as the provider names them (configuration, transaction details). */
export const SUPPORTED_CARD_TYPES = [
  'Visa',
  'MasterCard',
  'American Express',
  'Discover',
  'JCB',
  'UnionPay',
  'Maestro',
  'Diners Club',
] as const;
export type CardType = (typeof SUPPORTED_CARD_TYPES)[number];

/** credit-card-type's ids -> the provider's names. Brands missing here (elo, mir, ...) are not accepted. */
const CARD_TYPE_BY_LIBRARY_TYPE: Readonly<Record<string, CardType>> = {
  visa: 'Visa',
  mastercard: 'MasterCard',
  'american-express': 'American Express',
  discover: 'Discover',
  jcb: 'JCB',
  unionpay: 'UnionPay',
  maestro: 'Maestro',
  'diners-club': 'Diners Club',
};

/** The provider answers "Yes", "No" or "Unknown" for each flag; productId and the texts are free strings. */
export interface BinData {
  commercial: string;
  countryOfIssuance: string;
  debit: string;
  durbinRegulated: string;
  healthcare: string;
  issuingBank: string;
  payroll: string;
  prepaid: string;
  productId: string;
}

export const UNKNOWN_BIN_DATA: BinData = {
  commercial: 'Unknown',
  countryOfIssuance: 'Unknown',
  debit: 'Unknown',
  durbinRegulated: 'Unknown',
  healthcare: 'Unknown',
  issuingBank: 'Unknown',
  payroll: 'Unknown',
  prepaid: 'Unknown',
  productId: 'Unknown',
};

/** What a test card does when charged, decided once at tokenization (so the full number need not be kept). */
export type CardBehaviour =
  | 'normal'
  | 'processor_declined'
  | 'processor_failure'
  | 'fraud'
  | 'verification_declined'
  /** The provider's dispute test card: the sale settles at once with an open chargeback (core/disputes.ts). */
  | 'chargeback';

/**
 * A tokenized card as the core keeps it. Never the full number nor the CVV: a hash of the number, keyed by a key
 * that is never written anywhere (see SandboxGateway), stands in for duplicate detection, as the provider's unique
 * number identifier does.
 */
export interface Card {
  bin: string;
  last4: string;
  cardType: CardType;
  expirationMonth: string;
  expirationYear: string;
  cardholderName: string | null;
  postalCode: string | null;
  uniqueNumberIdentifier: string;
  binData: BinData;
  behaviour: CardBehaviour;
  /** What the issuer does in a 3-D Secure lookup (the provider's 3DS2 test cards); absent: not enrolled. */
  threeDSecureScenario?: ThreeDSecureScenario;
  /**
   * What the issuer said of the CVV and the postal code, decided at tokenization from the test values (CVV 200 ->
   * 'N', 301 -> 'S', postal code 20000 -> 'N', given -> 'M', absent -> 'I'), so neither value need be kept. Absent
   * on cards stored before these existed (verification.ts reads them with those cards' old answers).
   */
  securityCodeResponseCode?: string;
  postalCodeResponseCode?: string;
}

export interface CardInput {
  number?: unknown;
  expirationDate?: unknown;
  cvv?: unknown;
  cardholderName?: unknown;
  postalCode?: unknown;
}

/** Test numbers with a special outcome (gateway.md "Sandbox test values"). */
const BEHAVIOUR_BY_NUMBER: Readonly<Record<string, CardBehaviour>> = {
  '4000111111111115': 'verification_declined',
  '5105105105105100': 'verification_declined',
  '378734493671000': 'verification_declined',
  '6011000990139424': 'verification_declined',
  '4000111111111511': 'fraud',
  '4023898493988028': 'chargeback',
};

/**
 * This sandbox's own (the provider has one such number per brand): every other number of the declined test Visa's
 * issuer range, BIN 400011, fails verification too, so a test can walk through one BIN as a card tester does.
 */
const BEHAVIOUR_BY_BIN: Readonly<Record<string, CardBehaviour>> = { '400011': 'verification_declined' };

/** Test CVVs with a special issuer answer: 200 does not match, 301 is not verified by the issuer. */
const CVV_RESPONSE_BY_TEST_CVV: Readonly<Record<string, string>> = { '200': 'N', '301': 'S' };

const CARD = ['credit_card'] as const;
const BILLING = ['credit_card', 'billing_address'] as const;

interface Expiry {
  month: string;
  year: string;
}

const EXPIRY_ERRORS: Readonly<Record<ExpiryProblem, ValidationError>> = {
  required: validationError(CARD, 'expiration_date', '81709', 'Expiration date is required.'),
  format: validationError(CARD, 'expiration_date', '81710', 'Expiration date is invalid.'),
  month: validationError(CARD, 'expiration_month', '81712', 'Expiration month is invalid.'),
  year: validationError(CARD, 'expiration_year', '81713', 'Expiration year is invalid.'),
  expired: validationError(CARD, 'expiration_date', '81710', 'Expiration date is invalid.'),
};

/** The frame's expiry rule (rules/card-fields.ts) with the provider's codes. */
export function parseExpirationDate(value: unknown, now: Date): Expiry | ValidationError {
  if (typeof value !== 'string') return EXPIRY_ERRORS.required;
  const check = checkExpirationDate(value, now);
  if (!check.ok) return EXPIRY_ERRORS[check.problem];
  return { month: String(check.month).padStart(2, '0'), year: String(check.year) };
}

const TYPE_NOT_ACCEPTED = validationError(CARD, 'number', '81703', 'Credit card type is not accepted by this merchant account.');

/** The provider's code for a number that the frame's rule (validateNumber) refuses. */
function numberError(digits: string, cards: readonly CardCandidate[]): ValidationError {
  if (digits === '') return validationError(CARD, 'number', '81714', 'Credit card number is required.');
  if (!/^\d+$/.test(digits)) return validationError(CARD, 'number', '81715', 'Credit card number is invalid.');
  if (digits.length < 12 || digits.length > 19) {
    return validationError(CARD, 'number', '81716', 'Credit card number must be 12-19 digits.');
  }
  if (!luhnValid(digits)) return validationError(CARD, 'number', '81715', 'Credit card number is invalid.');
  // Luhn-valid, 12-19 digits: the brand is unknown or still ambiguous, or the length is not one of its lengths.
  if (cards.length !== 1) return TYPE_NOT_ACCEPTED;
  return validationError(CARD, 'number', '81716', 'Credit card number is invalid for its card type.');
}

/**
 * Validates raw card data the way the provider's tokenization does and returns the card to keep. The rules are the
 * hosted field frames' own (rules/card-fields.ts), so whatever a frame calls valid tokenizes (the brand aside: a
 * valid number of a brand the merchant does not take answers 81703). Error codes are the provider's (81714 number
 * required, 81715 invalid, 81716 length, 81703 type not accepted, 81707 CVV, ...).
 */
export function validateCard(input: CardInput, identifierKey: Buffer, now: Date): Outcome<Card> {
  const errors: ValidationError[] = [];
  const digits = typeof input.number === 'string' ? stripNumber(input.number) : '';
  const number = validateNumber(digits);
  const [brand, ...otherBrands] = number.cards;
  const cardType = brand === undefined ? undefined : CARD_TYPE_BY_LIBRARY_TYPE[brand.type];
  let detected: { type: CardType; cvvSize: 3 | 4 } | null = null;
  if (!number.isValid) {
    errors.push(numberError(digits, number.cards));
  } else if (brand === undefined || otherBrands.length > 0 || cardType === undefined) {
    errors.push(TYPE_NOT_ACCEPTED);
  } else {
    detected = { type: cardType, cvvSize: brand.code.size === 4 ? 4 : 3 };
  }

  const expiry = parseExpirationDate(input.expirationDate, now);
  if ('code' in expiry) errors.push(expiry);

  if (input.cvv !== undefined && input.cvv !== null && input.cvv !== '') {
    const cvv = typeof input.cvv === 'string' ? input.cvv : '';
    if (!validateCvv(cvv, detected?.cvvSize ?? null).isValid) {
      errors.push(
        validationError(CARD, 'cvv', '81707', 'CVV must be 4 digits for American Express and 3 digits for other card types.'),
      );
    }
  }

  let cardholderName: string | null = null;
  if (typeof input.cardholderName === 'string' && input.cardholderName !== '') {
    if (validateCardholderName(input.cardholderName).isValid) {
      cardholderName = input.cardholderName;
    } else if (input.cardholderName.length >= 256) {
      errors.push(validationError(CARD, 'cardholder_name', '81723', 'Cardholder name is too long.'));
    } else {
      // Only digits, spaces and dashes (a card number in the wrong field). The provider's API has no code of its
      // own for this (its client refuses it first); its only cardholder name code stands in.
      errors.push(validationError(CARD, 'cardholder_name', '81723', 'Cardholder name is invalid.'));
    }
  }

  let postalCode: string | null = null;
  if (typeof input.postalCode === 'string' && input.postalCode !== '') {
    const code = input.postalCode;
    if (validatePostalCode(code).isValid) {
      postalCode = code;
    } else if ([...code].length > POSTAL_CODE_MAX_LENGTH) {
      errors.push(
        validationError(BILLING, 'postal_code', '81809', 'Postal code may contain no more than 9 letter or number characters.'),
      );
    } else {
      errors.push(
        validationError(BILLING, 'postal_code', '81813', 'Postal code can only contain letters, numbers, spaces, and hyphens.'),
      );
    }
  }

  if (errors.length > 0 || detected === null || 'code' in expiry) return invalid(errors);
  return {
    ok: true,
    value: {
      bin: digits.slice(0, 6),
      last4: digits.slice(-4),
      cardType: detected.type,
      expirationMonth: expiry.month,
      expirationYear: expiry.year,
      cardholderName,
      postalCode,
      uniqueNumberIdentifier: createHmac('sha256', identifierKey).update(digits).digest('hex').slice(0, 32),
      binData: UNKNOWN_BIN_DATA,
      behaviour: BEHAVIOUR_BY_NUMBER[digits] ?? BEHAVIOUR_BY_BIN[digits.slice(0, 6)] ?? 'normal',
      ...(THREE_D_SECURE_TEST_CARDS[digits] === undefined ? {} : { threeDSecureScenario: THREE_D_SECURE_TEST_CARDS[digits] }),
      securityCodeResponseCode:
        typeof input.cvv !== 'string' || input.cvv === '' ? 'I' : (CVV_RESPONSE_BY_TEST_CVV[input.cvv] ?? 'M'),
      postalCodeResponseCode: postalCode === null ? 'I' : postalCode === '20000' ? 'N' : 'M',
    },
  };
}
