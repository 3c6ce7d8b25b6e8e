import { createHmac } from 'node:crypto';
import creditCardType from 'credit-card-type';
import { invalid, validationError } from './errors.ts';
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
export type CardBehaviour = 'normal' | 'processor_declined' | 'processor_failure' | 'fraud' | 'verification_declined';

/**
 * A tokenized card as the core keeps it. Never the full number nor the CVV: a keyed hash of the number stands in
 * for duplicate detection, as the provider's unique number identifier does.
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
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let index = 0; index < digits.length; index += 1) {
    let digit = Number(digits[digits.length - 1 - index]);
    if (index % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return digits.length > 0 && sum % 10 === 0;
}

const CARD = ['credit_card'] as const;
const BILLING = ['credit_card', 'billing_address'] as const;

interface Expiry {
  month: string;
  year: string;
}

/** MM/YY or MM/YYYY; month 1-12; year this year .. this year + 19; not in the past. */
export function parseExpirationDate(value: unknown, now: Date): Expiry | ValidationError {
  if (typeof value !== 'string' || value.trim() === '') {
    return validationError(CARD, 'expiration_date', '81709', 'Expiration date is required.');
  }
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match || match[1] === undefined || match[2] === undefined) {
    return validationError(CARD, 'expiration_date', '81710', 'Expiration date is invalid.');
  }
  const month = Number(match[1]);
  const year = match[2].length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) {
    return validationError(CARD, 'expiration_month', '81712', 'Expiration month is invalid.');
  }
  const thisYear = now.getUTCFullYear();
  if (year < thisYear || year > thisYear + 19) {
    return validationError(CARD, 'expiration_year', '81713', 'Expiration year is invalid.');
  }
  if (year === thisYear && month < now.getUTCMonth() + 1) {
    return validationError(CARD, 'expiration_date', '81710', 'Expiration date is invalid.');
  }
  return { month: String(month).padStart(2, '0'), year: String(year) };
}

function detectCardType(digits: string): { type: CardType; cvvSize: number; lengths: number[] } | null {
  const candidates = creditCardType(digits);
  // A complete number must name exactly one brand, as in the frames.
  const [only] = candidates;
  if (candidates.length !== 1 || only === undefined) return null;
  const type = CARD_TYPE_BY_LIBRARY_TYPE[only.type];
  return type === undefined ? null : { type, cvvSize: only.code.size, lengths: only.lengths };
}

/**
 * Validates raw card data the way the provider's tokenization does and returns the card to keep. Error codes are
 * the provider's (81714 number required, 81715 invalid, 81716 length, 81703 type not accepted, 81707 CVV, ...).
 */
export function validateCard(input: CardInput, secret: string, now: Date): Outcome<Card> {
  const errors: ValidationError[] = [];
  const rawNumber = typeof input.number === 'string' ? input.number.replace(/[\s-]/g, '') : '';
  let detected: ReturnType<typeof detectCardType> = null;
  if (rawNumber === '') {
    errors.push(validationError(CARD, 'number', '81714', 'Credit card number is required.'));
  } else if (!/^\d+$/.test(rawNumber)) {
    errors.push(validationError(CARD, 'number', '81715', 'Credit card number is invalid.'));
  } else if (rawNumber.length < 12 || rawNumber.length > 19) {
    errors.push(validationError(CARD, 'number', '81716', 'Credit card number must be 12-19 digits.'));
  } else if (!luhnValid(rawNumber)) {
    errors.push(validationError(CARD, 'number', '81715', 'Credit card number is invalid.'));
  } else {
    detected = detectCardType(rawNumber);
    if (detected === null) {
      errors.push(
        validationError(CARD, 'number', '81703', 'Credit card type is not accepted by this merchant account.'),
      );
    } else if (!detected.lengths.includes(rawNumber.length)) {
      errors.push(validationError(CARD, 'number', '81716', 'Credit card number is invalid for its card type.'));
    }
  }

  const expiry = parseExpirationDate(input.expirationDate, now);
  if ('code' in expiry) errors.push(expiry);

  if (input.cvv !== undefined && input.cvv !== null && input.cvv !== '') {
    const expectedSize = detected?.cvvSize;
    const cvv = typeof input.cvv === 'string' ? input.cvv : '';
    const sizeOk = expectedSize === undefined ? cvv.length === 3 || cvv.length === 4 : cvv.length === expectedSize;
    if (!/^\d+$/.test(cvv) || !sizeOk) {
      errors.push(
        validationError(CARD, 'cvv', '81707', 'CVV must be 4 digits for American Express and 3 digits for other card types.'),
      );
    }
  }

  let cardholderName: string | null = null;
  if (typeof input.cardholderName === 'string' && input.cardholderName !== '') {
    if (input.cardholderName.length >= 256) {
      errors.push(validationError(CARD, 'cardholder_name', '81723', 'Cardholder name is too long.'));
    } else {
      cardholderName = input.cardholderName;
    }
  }

  let postalCode: string | null = null;
  if (typeof input.postalCode === 'string' && input.postalCode !== '') {
    const code = input.postalCode;
    if (code.length > 10) {
      errors.push(
        validationError(BILLING, 'postal_code', '81809', 'Postal code may contain no more than 9 letter or number characters.'),
      );
    } else if (!/^[A-Za-z0-9]{2}[A-Za-z0-9 -]*$/.test(code)) {
      errors.push(
        validationError(BILLING, 'postal_code', '81813', 'Postal code can only contain letters, numbers, spaces, and hyphens.'),
      );
    } else {
      postalCode = code;
    }
  }

  if (errors.length > 0 || detected === null || 'code' in expiry) return invalid(errors);
  return {
    ok: true,
    value: {
      bin: rawNumber.slice(0, 6),
      last4: rawNumber.slice(-4),
      cardType: detected.type,
      expirationMonth: expiry.month,
      expirationYear: expiry.year,
      cardholderName,
      postalCode,
      uniqueNumberIdentifier: createHmac('sha256', secret).update(rawNumber).digest('hex').slice(0, 32),
      binData: UNKNOWN_BIN_DATA,
      behaviour: BEHAVIOUR_BY_NUMBER[rawNumber] ?? 'normal',
    },
  };
}
