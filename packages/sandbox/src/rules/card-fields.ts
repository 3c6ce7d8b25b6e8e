// The libraries' modules one by one (the frame script is bundled from this file): card-validator's index would bring
// its expiry rules, and credit-card-type's its API for custom brands (add, update, reorder), neither used here.
import { cardholderName } from 'card-validator/dist/cardholder-name.js';
import { cvv } from 'card-validator/dist/cvv.js';
import { addMatchingCardsToResults } from 'credit-card-type/dist/lib/add-matching-cards-to-results.js';
import cardTypes from 'credit-card-type/dist/lib/card-types.js';
import { findBestMatch } from 'credit-card-type/dist/lib/find-best-match.js';
import type { CreditCardType } from 'credit-card-type/dist/types.js';

// The card field rules (checkout-behaviour.md "Card form validation"), one copy for both faces of the sandbox: the
// hosted field frames (pages/, bundled for the browser) and tokenization (core/, which adds the provider's error
// codes). Pure: no DOM, no Node APIs, the time passed in. card-validator / credit-card-type are the provider's own
// open-source rules.

export interface Validity {
  isValid: boolean;
  isPotentiallyValid: boolean;
}

/** A brand the digits may be (credit-card-type's ids and names, e.g. 'visa' / 'Visa'). */
export interface CardCandidate {
  type: string;
  niceType: string;
  code: { name: string; size: number };
}

export interface NumberValidity extends Validity {
  /** Every brand the digits may still be; one entry once the brand is unambiguous. */
  cards: CardCandidate[];
}

const VALID: Validity = { isValid: true, isPotentiallyValid: true };

function verdict(isPotentiallyValid: boolean): Validity {
  return { isValid: false, isPotentiallyValid };
}

// --- number ---

/** The order credit-card-type tries its brands in: the order of its answer when several match. */
const BRAND_ORDER = [
  'visa',
  'mastercard',
  'american-express',
  'diners-club',
  'discover',
  'troy',
  'jcb',
  'unionpay',
  'naranja',
  'verve',
  'maestro',
  'elo',
  'mir',
  'hiper',
  'hipercard',
] as const;

/**
 * The brands digits may be, as credit-card-type answers (its `creditCardType(digits)`, built from its own matching
 * modules): every brand whose prefix they fit, or the one whose longest prefix they complete.
 */
export function detectBrands(digits: string): CreditCardType[] {
  const results: CreditCardType[] = [];
  for (const id of BRAND_ORDER) {
    const brand = cardTypes[id];
    if (brand !== undefined) addMatchingCardsToResults(digits, brand, results);
  }
  const best = findBestMatch(results);
  return best === null ? results : [best];
}

export function stripNumber(value: string): string {
  return value.replace(/[\s-]/g, '');
}

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

/**
 * Digits (spaces and dashes ignored), Luhn for every brand (UnionPay included), one unambiguous brand at one of its
 * lengths: card-validator's `cardNumber(digits, { luhnValidateUnionPay: true })`, written on the brands detected once.
 * Potentially valid while the brand is ambiguous, the number shorter than the brand's longest length, or valid.
 */
export function validateNumber(value: string): NumberValidity {
  const digits = stripNumber(value);
  if (digits === '') return { ...verdict(true), cards: [] };
  if (!/^\d+$/.test(digits)) return { ...verdict(false), cards: [] };
  const brands = detectBrands(digits);
  const cards = brands.map(({ type, niceType, code }) => ({ type, niceType, code: { name: code.name, size: code.size } }));
  const [brand, ...others] = brands;
  if (brand === undefined || others.length > 0) return { ...verdict(brand !== undefined), cards };
  const isValid = brand.lengths.includes(digits.length) && luhnValid(digits);
  return { isValid, isPotentiallyValid: isValid || digits.length < Math.max(...brand.lengths), cards };
}

// --- expiration date ---

/** Years accepted after the current one (checkout-behaviour.md: this year .. this year + 19). */
export const EXPIRY_YEARS_AHEAD = 19;
const EARTH_LAST_TIME_ZONE_MS = 12 * 60 * 60 * 1000;

export type ExpiryProblem = 'required' | 'format' | 'month' | 'year' | 'expired';

export type ExpiryCheck =
  | { ok: true; month: number; year: number }
  | { ok: false; problem: ExpiryProblem; isPotentiallyValid: boolean };

/**
 * "MM/YY" or "MM/YYYY" (white space ignored: the frame shows "MM / YY"; "M/YY" accepted); month 1-12; year from
 * this year to this year + 19; in this year the month must not be past. "This" month and year are those of UTC-12,
 * the last time zone on Earth: a card stays valid until its month has ended everywhere, so the answer depends on
 * the instant only, never on the time zone of whoever asks (the shopper's browser or the sandbox process).
 */
/** Whether a card expiring at the end of `month`/`year` has expired at `now` (its month has ended everywhere). */
export function hasExpired(month: number, year: number, now: Date): boolean {
  const earth = new Date(now.getTime() - EARTH_LAST_TIME_ZONE_MS);
  return year * 12 + month < earth.getUTCFullYear() * 12 + earth.getUTCMonth() + 1;
}

export function checkExpirationDate(value: string, now: Date): ExpiryCheck {
  const fail = (problem: ExpiryProblem, isPotentiallyValid: boolean): ExpiryCheck => ({
    ok: false,
    problem,
    isPotentiallyValid,
  });
  const compact = value.replace(/\s/g, '');
  if (compact === '') return fail('required', true);
  const match = /^(\d{1,2})(?:\/(\d{0,4}))?$/.exec(compact);
  const monthText = match?.[1];
  if (match === null || monthText === undefined) return fail('format', false);
  const month = Number(monthText);
  if (month < 1 || month > 12) return monthText === '0' ? fail('format', true) : fail('month', false);
  const yearText = match[2] ?? '';
  if (yearText === '') return fail('format', true);

  const earth = new Date(now.getTime() - EARTH_LAST_TIME_ZONE_MS);
  const thisYear = earth.getUTCFullYear();
  const thisMonth = earth.getUTCMonth() + 1;
  let year: number | null = null;
  let longer = false; // yearText is the start of an accepted year written in more digits
  for (let candidate = thisYear; candidate <= thisYear + EXPIRY_YEARS_AHEAD; candidate += 1) {
    for (const written of [String(candidate), String(candidate % 100).padStart(2, '0')]) {
      if (written === yearText) year = candidate;
      else if (written.startsWith(yearText)) longer = true;
    }
  }
  if (yearText.length !== 2 && yearText.length !== 4) return fail('format', longer);
  if (year === null) return fail('year', longer);
  if (year === thisYear && month < thisMonth) return fail('expired', longer);
  return { ok: true, month, year };
}

export function validateExpirationDate(value: string, now: Date): Validity {
  const check = checkExpirationDate(value, now);
  return check.ok ? VALID : verdict(check.isPotentiallyValid);
}

// --- security code, cardholder name, postal code ---

/** Digits; 3 or 4 until the brand's size is known. */
export function validateCvv(value: string, size: 3 | 4 | null): Validity {
  const { isValid, isPotentiallyValid } = cvv(value, size ?? [3, 4]);
  return { isValid, isPotentiallyValid };
}

/** Fewer than 256 characters, not only digits, spaces and dashes. Empty is not valid (required-ness is elsewhere). */
export function validateCardholderName(value: string): Validity {
  const { isValid, isPotentiallyValid } = cardholderName(value);
  return { isValid, isPotentiallyValid };
}

export const POSTAL_CODE_MAX_LENGTH = 10;
// Letters and digits of any script: postal codes are written in the shopper's alphabet ("ÅB 12", "12.345").
const POSTAL_CODE_START = /^[\p{L}\p{N}]{2}/u;
const POSTAL_CODE_PARTIAL = /^[\p{L}\p{N}]?$/u;

/**
 * The rule as written (checkout-behaviour.md): at least 2 and at most 10 characters (counted as a person counts
 * them, not in UTF-16 units), the first two letters or digits as typed (nothing trimmed); the rest is free.
 */
export function validatePostalCode(value: string): Validity {
  const length = [...value].length;
  if (length <= POSTAL_CODE_MAX_LENGTH && POSTAL_CODE_START.test(value)) return VALID;
  return verdict(POSTAL_CODE_PARTIAL.test(value));
}
