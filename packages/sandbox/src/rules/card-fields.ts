// The card field rules (checkout-behaviour.md "Card form validation"), one copy for both faces of the sandbox: the
// hosted field frames (pages/, bundled for the browser) and tokenization (core/, which adds the provider's error
// codes). Pure: no DOM, no Node APIs, the time passed in. They answer as the provider's own open-source validators do
// (credit-card-type for the brands, card-validator for the number, CVV and name; a test compares them on every
// prefix), written here on one table of the brands' facts: the libraries' modules cost the frame script 5.5 KB
// minified (issue 10).

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

/** A card brand: what the number frame reports of it (CardCandidate), how its numbers are grouped and how long. */
export interface Brand extends CardCandidate {
  /** Where the number is split when shown: before these digit positions. */
  gaps: number[];
  lengths: number[];
  /** Prefixes as ranges of equally long digit strings, from-to (one prefix: from === to), tried in this order. */
  prefixes: Array<[from: string, to: string]>;
}

/**
 * The brands, in the order they are tried (the order of the answer when several match), one a line: name (its id is
 * the name in lower case, a space a dash: `American Express` is `american-express`); the security code's name; its
 * digits; lengths; gaps; prefixes. A prefix that starts with a letter keeps that many of the digits that start the
 * prefix before it (a 1, b 2, ...: `6011a44` is 6011 then 644), and needs no comma before it. A range of prefixes is
 * written from-to with only the last digits of its end, those that differ from its start (`2221-9` is 2221 to 2229,
 * `650846-50` 650846 to 650850). The networks' published facts, as credit-card-type 10.3 lists them; written short
 * for the frame script's download (issue 10).
 */
const BRAND_TABLE = `Visa;CVV;3;16,18,19;4,8,12;4
Mastercard;CVC;3;16;4,8,12;51-5,2221-9b3-9a3-6a70-1b20
American Express;CID;4;15;4,10;34a7
Diners Club;CVV;3;14,16,19;4,10;300-5a6a8a9
Discover;CID;3;16,19;4,8,12;6011a44-9a5
Troy;CVV;3;16;4,8,12;9792,650052d82-3d92c161d70e3e5c268d71e3-4c456-7c836d46-50c923d87d90b4997b7366c998b8758d67-8\
b083700-4d5800-4e900-1d6000e100-5e200-3b875000-3g9e101-4e200e501e601e900d6000-2e100-3f10g5-6e200-1e500g4-5e600-2\
d7100-1e600-2e700e801-2d8200-2e300-11e400-5e500-5e600-1d9800c80800e900
JCB;CVV;3;16,17,18,19;4,8,12;2131,1800,3528-89
UnionPay;CVN;3;14,15,16,17,18,19;4,8,12;620b100-82c84-7d5-97b200-5d10-999e8d7-9b3-6b70c2c6c700-79d81-99b82-9b91c2,810\
b10-31b32-51b52-63b64-71
Naranja;CVV;3;16;4,8,12;589562,402918,527572
Verve;CVV;3;16,18,19;4,8,12;506099-127c129d33-50d58-63d66e8d70e3e6-80d84e7-8d91e5e7b7865e6e8-77d80-8c900d41
Maestro;CVC;3;12,13,14,15,16,17,18,19;4,8,12;493698,500000-4174b4176-6698b6779-8999a6-9,63a7,6
Elo;CVE;3;16;4,8,12;401178e9a38935a57631e2a31274a51416b7393,504175b6699-778b9000-999,627780a36297c368a50031-3e5-51\
c405-39d85-538c541-98c700-18d20-7c901-78b1652-79b5000-19d21-58
Mir;CVP2;3;16,17,18,19;4,8,12;2200-4
Hiper;CVC;3;16;4,8,12;637095c37423c43358c568d99c609d12
Hipercard;CVC;3;16;4,8,12;606282`;

const numbers = (list = ''): number[] => list.split(',').map(Number);

export const BRANDS: readonly Brand[] = BRAND_TABLE.split('\n').map((line) => {
  const [niceType = '', name = '', size, lengths, gaps, prefixes = ''] = line.split(';');
  let from = '';
  return {
    type: niceType.toLowerCase().replace(' ', '-'),
    niceType,
    code: { name, size: Number(size) },
    lengths: numbers(lengths),
    gaps: numbers(gaps),
    prefixes: [...prefixes.matchAll(/([a-z]?)(\d+)-?(\d*)/g)].map(([, kept = '', start = '', end = '']) => {
      from = from.slice(0, kept === '' ? 0 : Number.parseInt(kept, 36) - 9) + start;
      return [from, from.slice(0, from.length - end.length) + end];
    }),
  };
});

/**
 * The brands digits may be, as credit-card-type's `creditCardType(digits)` answers: each brand whose prefix the digits
 * fit so far (its first prefix that does counts), or, once every such brand's prefix is typed in full, the one whose
 * prefix is the longest (the first of those).
 */
export function detectBrands(digits: string): Brand[] {
  let matches: Array<{ brand: Brand; typed: number }> = [];
  for (const brand of BRANDS) {
    // Digit strings of one length compare as their numbers do; a shorter start compares with the range's start.
    const prefix = brand.prefixes.find(([from, to]) => {
      const start = digits.slice(0, from.length);
      return start >= from.slice(0, start.length) && start <= to.slice(0, start.length);
    });
    if (prefix !== undefined) matches.push({ brand, typed: digits.length >= prefix[0].length ? prefix[0].length : 0 });
  }
  if (matches.every(({ typed }) => typed > 0)) {
    matches = matches.filter(({ typed }) => typed === Math.max(...matches.map((match) => match.typed))).slice(0, 1);
  }
  return matches.map(({ brand }) => brand);
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
  const cards = brands.map(({ type, niceType, code }) => ({ type, niceType, code: { ...code } }));
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

/** Digits; 3 or 4 until the brand's size is known. Potentially valid while shorter than the shortest size. */
export function validateCvv(value: string, size: 3 | 4 | null): Validity {
  if (!/^\d*$/.test(value)) return verdict(false);
  if (value.length === size || (size === null && (value.length === 3 || value.length === 4))) return VALID;
  return verdict(value.length < (size ?? 3));
}

/** Fewer than 256 characters, not only digits, spaces and dashes. Empty is not valid (required-ness is elsewhere). */
export function validateCardholderName(value: string): Validity {
  if (value.length > 255) return verdict(false);
  return /^[\d\s-]*$/.test(value) ? verdict(true) : VALID;
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
