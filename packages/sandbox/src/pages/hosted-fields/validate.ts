import cardValidator from 'card-validator';
import creditCardType from 'credit-card-type';
import type { CardCandidate, FieldName } from './protocol.ts';

// Validation inside the hosted field frames (checkout-behaviour.md "Card form validation"), pure so that it runs
// and is tested in Node. card-validator / credit-card-type are the provider's own open-source rules.

export interface Validity {
  isValid: boolean;
  isPotentiallyValid: boolean;
}

export interface NumberValidity extends Validity {
  /** Every brand the digits may still be; one entry once the brand is unambiguous. */
  cards: CardCandidate[];
}

export function stripNumber(value: string): string {
  return value.replace(/[\s-]/g, '');
}

export function validateNumber(value: string): NumberValidity {
  const digits = stripNumber(value);
  if (digits === '') return { isValid: false, isPotentiallyValid: true, cards: [] };
  if (!/^\d+$/.test(digits)) return { isValid: false, isPotentiallyValid: false, cards: [] };
  const cards = creditCardType(digits).map(({ type, niceType, code }) => ({
    type,
    niceType,
    code: { name: code.name, size: code.size },
  }));
  // Luhn for every brand, UnionPay included (the library skips it for UnionPay by default).
  const verdict = cardValidator.number(digits, { luhnValidateUnionPay: true });
  return { isValid: verdict.isValid, isPotentiallyValid: verdict.isPotentiallyValid, cards };
}

/** MM/YY or MM/YYYY (spaces ignored, as the frame shows "MM / YY"); year this .. this + 19; not past. */
export function validateExpirationDate(value: string): Validity {
  const compact = value.replace(/\s/g, '');
  if (compact === '') return { isValid: false, isPotentiallyValid: true };
  const { isValid, isPotentiallyValid } = cardValidator.expirationDate(compact, 19);
  return { isValid, isPotentiallyValid };
}

/** Digits; 3 or 4 until the brand's size is known. */
export function validateCvv(value: string, size: 3 | 4 | null): Validity {
  const { isValid, isPotentiallyValid } = cardValidator.cvv(value, size ?? [3, 4]);
  return { isValid, isPotentiallyValid };
}

/** Fewer than 256 characters, not only digits, spaces and dashes. Empty is reported by isEmpty, not here. */
export function validateCardholderName(value: string): Validity {
  const { isValid, isPotentiallyValid } = cardValidator.cardholderName(value);
  return { isValid, isPotentiallyValid };
}

/** 2-10 characters, the first two letters or digits. */
export function validatePostalCode(value: string): Validity {
  if (value.length > 10) return { isValid: false, isPotentiallyValid: false };
  const { isValid, isPotentiallyValid } = cardValidator.postalCode(value, { minLength: 2 });
  return { isValid, isPotentiallyValid };
}

export function validateField(field: FieldName, value: string, cvvSize: 3 | 4 | null): Validity {
  switch (field) {
    case 'number':
      return validateNumber(value);
    case 'expirationDate':
      return validateExpirationDate(value);
    case 'cvv':
      return validateCvv(value, cvvSize);
    case 'cardholderName':
      return validateCardholderName(value);
    case 'postalCode':
      return validatePostalCode(value);
  }
}

/**
 * Formats the expiry as typed: "1" -> "1", "3" -> "03 / ", "12" -> "12 / ", "1228" -> "12 / 28", "122030" ->
 * "12 / 2030". While deleting, a dangling separator is dropped rather than re-added, so backspace is not trapped.
 */
export function formatExpirationDate(value: string, deleting: boolean): string {
  let digits = value.replace(/\D/g, '').slice(0, 6);
  if (digits === '') return '';
  if (digits.length === 1 && Number(digits) > 1) digits = `0${digits}`;
  if (digits.length === 1) return digits;
  const month = digits.slice(0, 2);
  const year = digits.slice(2);
  if (year === '') return deleting ? month : `${month} / `;
  return `${month} / ${year}`;
}

/** The value the tokenization endpoint expects: "MM/YY" or "MM/YYYY". */
export function compactExpirationDate(value: string): string {
  return value.replace(/\s/g, '');
}
