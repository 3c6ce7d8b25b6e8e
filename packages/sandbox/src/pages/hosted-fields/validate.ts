import {
  detectBrands,
  validateCardholderName,
  validateCvv,
  validateExpirationDate,
  validateNumber,
  validatePostalCode,
} from '../../rules/card-fields.ts';
import type { Validity } from '../../rules/card-fields.ts';
import type { FieldName } from './protocol.ts';

export { stripNumber, validateNumber } from '../../rules/card-fields.ts';

/** The longest card numbers (Visa, Maestro, UnionPay...) have 19 digits. */
const MAX_CARD_DIGITS = 19;

// The frame's side of validation: which rule a field uses, and how the number and the expiry are formatted as typed.
// The rules themselves live in rules/card-fields.ts, shared with tokenization (core/cards.ts), so the two cannot
// disagree. A script of its own (validate.js, an ES module) that every frame imports as it announces itself ready: a
// field takes typing before it is in (issue 10), field.ts judges what was typed when it arrives.

export function validateField(field: FieldName, value: string, cvvSize: 3 | 4 | null, now: Date = new Date()): Validity {
  switch (field) {
    case 'number':
      return validateNumber(value);
    case 'expirationDate':
      return validateExpirationDate(value, now);
    case 'cvv':
      return validateCvv(value, cvvSize);
    case 'cardholderName':
      return validateCardholderName(value);
    case 'postalCode':
      return validatePostalCode(value);
  }
}

/**
 * Formats the expiry as typed: "1" -> "1", "3" -> "03 / ", "1/" -> "01 / ", "12" -> "12 / ", "1228" -> "12 / 28",
 * "1/28" -> "01 / 28", "122030" -> "12 / 2030". A one-digit month followed by a separator (slash, space or dash) is
 * padded before the other digits count, so they stay the year. While deleting nothing is padded or added: a
 * dangling separator is dropped rather than re-added, so backspace is never trapped.
 */
export function formatExpirationDate(value: string, deleting: boolean): string {
  let month: string;
  let year: string;
  const separated = /^\s*(\d)[\s/-]+(.*)$/.exec(value);
  if (separated !== null) {
    month = `${deleting ? '' : '0'}${separated[1] ?? ''}`;
    year = (separated[2] ?? '').replace(/\D/g, '').slice(0, 4);
  } else {
    const digits = value.replace(/\D/g, '');
    month = digits.slice(0, 2);
    year = digits.slice(2, 6);
    // 2-9 can only be a one-digit month.
    if (!deleting && /^[2-9]$/.test(month)) month = `0${month}`;
  }
  if (year !== '') return `${month} / ${year}`;
  return deleting || month.length < 2 ? month : `${month} / `;
}

/** An input of the expiry field: its value then, and whether it deleted. */
export type ExpiryEdit = readonly [value: string, deleting: boolean];

/**
 * The expiry as formatting each of `edits` as it was made would have left it: what field-steps.ts sets at an input for
 * the edits made since the last (all those typed before the rules arrived, at the first). The formatting of the whole is not that of each keystroke: "3", "2", "7" typed are
 * "03 / 27" (a month of 2-9 is one digit), the digits "327" at once "32 / 7". The first edit is taken as typed (it
 * changed the value the field showed, formatted already); each next one at the end (characters added or taken away
 * there) is made again on the value formatted so far, any other taken as typed.
 */
export function formatExpiryEdits(edits: readonly ExpiryEdit[]): string {
  let before = '';
  let formatted = '';
  for (const [value, deleting] of edits) {
    let edited = value;
    if (value.startsWith(before)) edited = formatted + value.slice(before.length);
    else if (before.startsWith(value)) edited = formatted.slice(0, Math.max(0, formatted.length - before.length + value.length));
    formatted = formatExpirationDate(edited, deleting);
    before = value;
  }
  return formatted;
}

/** Where a number is split when its brand is not known yet: the common 4-4-4-4 grouping. */
const DEFAULT_GAPS: readonly number[] = [4, 8, 12];

/**
 * Groups the number's digits as its brand prints them ("4111 1111 1111 1111", "3782 822463 10005"), dropping
 * anything but digits, and puts the caret back after as many digits as stood before it.
 */
export function formatCardNumber(value: string, caret: number): { value: string; caret: number } {
  const digits = value.replace(/\D/g, '').slice(0, MAX_CARD_DIGITS);
  const digitsBeforeCaret = Math.min(value.slice(0, caret).replace(/\D/g, '').length, digits.length);
  const candidates = detectBrands(digits);
  const gaps = candidates.length === 1 && candidates[0] !== undefined ? candidates[0].gaps : DEFAULT_GAPS;
  let formatted = '';
  let newCaret = 0;
  for (const [index, digit] of [...digits].entries()) {
    if (gaps.includes(index)) formatted += ' ';
    formatted += digit;
    if (index + 1 === digitsBeforeCaret) newCaret = formatted.length;
  }
  return { value: formatted, caret: newCaret };
}

/** The value the tokenization endpoint expects: "MM/YY" or "MM/YYYY". */
export function compactExpirationDate(value: string): string {
  return value.replace(/\s/g, '');
}
