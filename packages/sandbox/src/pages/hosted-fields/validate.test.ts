import { describe, expect, it } from 'vitest';
import {
  formatExpirationDate,
  validateCardholderName,
  validateCvv,
  validateExpirationDate,
  validateNumber,
  validatePostalCode,
} from './validate.ts';

/** Completes `prefix` (padded with zeros to length - 1) with its Luhn check digit. */
function luhnNumber(prefix: string, length: number): string {
  const body = prefix.padEnd(length - 1, '0');
  for (let check = 0; check < 10; check += 1) {
    const candidate = `${body}${check}`;
    let sum = 0;
    for (let index = 0; index < candidate.length; index += 1) {
      let digit = Number(candidate[candidate.length - 1 - index]);
      if (index % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
      sum += digit;
    }
    if (sum % 10 === 0) return candidate;
  }
  throw new Error('unreachable');
}

const BRANDS: Array<[type: string, prefix: string, valid: number[], invalid: number[], cvv: number]> = [
  ['visa', '4', [16, 18, 19], [13, 15, 17], 3],
  ['mastercard', '51', [16], [15, 17], 3],
  ['american-express', '34', [15], [14, 16], 4],
  ['diners-club', '36', [14, 16, 19], [13, 15, 17, 18], 3],
  ['discover', '6011', [16, 19], [15, 17, 18], 3],
  ['jcb', '3530', [16, 17, 18, 19], [15], 3],
  ['unionpay', '6240', [14, 15, 16, 17, 18, 19], [13], 3],
  ['maestro', '6304', [12, 13, 14, 15, 16, 17, 18, 19], [11], 3],
];

describe('card number', () => {
  it.each(BRANDS)('%s: valid at its lengths only, Luhn checked, code size %#', (type, prefix, valid, invalid, cvv) => {
    for (const length of valid) {
      const number = luhnNumber(prefix, length);
      const result = validateNumber(number);
      expect(result, `${type} ${length}`).toMatchObject({ isValid: true, isPotentiallyValid: true });
      expect(result.cards.map((card) => card.type)).toEqual([type]);
      expect(result.cards[0]?.code.size).toBe(cvv);
      // One wrong digit breaks Luhn.
      const last = Number(number.slice(-1));
      expect(validateNumber(`${number.slice(0, -1)}${(last + 1) % 10}`).isValid).toBe(false);
    }
    for (const length of invalid) expect(validateNumber(luhnNumber(prefix, length)).isValid, `${type} ${length}`).toBe(false);
  });

  it('strips spaces and dashes', () => {
    expect(validateNumber('4111 1111-1111 1111').isValid).toBe(true);
  });

  it('is only potentially valid while the brand is ambiguous or the number incomplete', () => {
    expect(validateNumber('')).toEqual({ isValid: false, isPotentiallyValid: true, cards: [] });
    expect(validateNumber('4111')).toMatchObject({ isValid: false, isPotentiallyValid: true });
    const ambiguous = validateNumber('6');
    expect(ambiguous.cards.length).toBeGreaterThan(1);
    expect(ambiguous).toMatchObject({ isValid: false, isPotentiallyValid: true });
  });

  it('refuses letters and unknown prefixes outright', () => {
    expect(validateNumber('4111a')).toMatchObject({ isValid: false, isPotentiallyValid: false });
    expect(validateNumber('9999')).toMatchObject({ isValid: false, isPotentiallyValid: false, cards: [] });
  });

  it('checks Luhn for UnionPay too', () => {
    const number = luhnNumber('6240', 16);
    const wrong = `${number.slice(0, -1)}${(Number(number.slice(-1)) + 5) % 10}`;
    expect(validateNumber(wrong).isValid).toBe(false);
  });
});

describe('expiration date', () => {
  const now = new Date();
  const year = now.getFullYear();
  const yy = (value: number): string => String(value % 100).padStart(2, '0');

  it('accepts MM / YY and MM/YYYY from this year to this year + 19', () => {
    expect(validateExpirationDate(`12 / ${yy(year)}`).isValid).toBe(true);
    expect(validateExpirationDate(`01 / ${yy(year + 1)}`).isValid).toBe(true);
    expect(validateExpirationDate(`01/${year + 19}`).isValid).toBe(true);
    expect(validateExpirationDate(`01/${year + 20}`).isValid).toBe(false);
    expect(validateExpirationDate(`06 / ${yy(year - 1)}`)).toMatchObject({ isValid: false, isPotentiallyValid: false });
  });

  it('refuses a past month of this year', () => {
    const month = now.getMonth(); // the previous month, 1-based
    if (month === 0) return; // January: no past month this year
    expect(validateExpirationDate(`${String(month).padStart(2, '0')} / ${yy(year)}`).isValid).toBe(false);
  });

  it('refuses month 13 and is potentially valid while typing', () => {
    expect(validateExpirationDate(`13 / ${yy(year + 1)}`).isValid).toBe(false);
    expect(validateExpirationDate('1')).toMatchObject({ isValid: false, isPotentiallyValid: true });
    expect(validateExpirationDate('12 / ')).toMatchObject({ isValid: false, isPotentiallyValid: true });
    expect(validateExpirationDate('')).toMatchObject({ isValid: false, isPotentiallyValid: true });
  });

  it('formats "MM / YY" as typed', () => {
    expect(formatExpirationDate('', false)).toBe('');
    expect(formatExpirationDate('1', false)).toBe('1');
    expect(formatExpirationDate('3', false)).toBe('03 / ');
    expect(formatExpirationDate('12', false)).toBe('12 / ');
    expect(formatExpirationDate('12 / 2', false)).toBe('12 / 2');
    expect(formatExpirationDate('1228', false)).toBe('12 / 28');
    expect(formatExpirationDate('12/2030', false)).toBe('12 / 2030');
    expect(formatExpirationDate('12 / 20301', false)).toBe('12 / 2030');
    // Backspace over the separator must not bring it back.
    expect(formatExpirationDate('12 /', true)).toBe('12');
  });
});

describe('cvv', () => {
  it('takes 3 or 4 digits until the size is known, then exactly that', () => {
    expect(validateCvv('12', null)).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validateCvv('123', null).isValid).toBe(true);
    expect(validateCvv('1234', null).isValid).toBe(true);
    expect(validateCvv('1234', 3)).toEqual({ isValid: false, isPotentiallyValid: false });
    expect(validateCvv('123', 4)).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validateCvv('12a', null).isValid).toBe(false);
  });
});

describe('cardholder name', () => {
  it('is under 256 characters and not only digits, spaces and dashes', () => {
    expect(validateCardholderName('Ada Lovelace').isValid).toBe(true);
    expect(validateCardholderName('a'.repeat(255)).isValid).toBe(true);
    expect(validateCardholderName('a'.repeat(256))).toEqual({ isValid: false, isPotentiallyValid: false });
    expect(validateCardholderName('4111 1111-1111').isValid).toBe(false);
    expect(validateCardholderName('').isValid).toBe(false);
  });
});

describe('postal code', () => {
  it('is 2-10 characters, the first two letters or digits', () => {
    expect(validatePostalCode('SW1A 1AA').isValid).toBe(true);
    expect(validatePostalCode('12').isValid).toBe(true);
    expect(validatePostalCode('1234567890').isValid).toBe(true);
    expect(validatePostalCode('12345678901')).toEqual({ isValid: false, isPotentiallyValid: false });
    expect(validatePostalCode('1')).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validatePostalCode('-1234').isValid).toBe(false);
  });
});
