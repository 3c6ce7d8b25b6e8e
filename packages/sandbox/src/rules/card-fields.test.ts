import { cardNumber } from 'card-validator/dist/card-number.js';
import creditCardType from 'credit-card-type';
import { describe, expect, it } from 'vitest';
import {
  detectBrands,
  hasExpired,
  checkExpirationDate,
  validateCardholderName,
  validateCvv,
  validateExpirationDate,
  validateNumber,
  validatePostalCode,
} from './card-fields.ts';

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

  // The frame's bundle carries the libraries' matching modules, not their indexes: the answers must stay theirs.
  it("detects the brands credit-card-type's index does, and judges numbers as card-validator's cardNumber does", () => {
    const differing: string[] = [];
    const compare = (digits: string): boolean => {
      const theirs = cardNumber(digits, { luhnValidateUnionPay: true });
      const ours = validateNumber(digits);
      const same =
        JSON.stringify(detectBrands(digits)) === JSON.stringify(creditCardType(digits)) &&
        ours.isValid === theirs.isValid &&
        ours.isPotentiallyValid === theirs.isPotentiallyValid;
      if (!same) differing.push(digits);
      return same;
    };
    // Every prefix of up to three digits (where the brands part ways), then on every two-digit prefix whole numbers of
    // every length, and one with a wrong check digit.
    for (let length = 1; length <= 3; length += 1) {
      for (let n = 0; n < 10 ** length; n += 1) compare(String(n).padStart(length, '0'));
    }
    for (let n = 0; n < 100; n += 1) {
      for (let length = 11; length <= 20; length += 1) compare(luhnNumber(String(n).padStart(2, '0'), length));
      const number = luhnNumber(String(n).padStart(2, '0'), 16);
      compare(`${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`);
    }
    expect(differing).toEqual([]);
  });

  it('checks Luhn for UnionPay too', () => {
    const number = luhnNumber('6240', 16);
    const wrong = `${number.slice(0, -1)}${(Number(number.slice(-1)) + 5) % 10}`;
    expect(validateNumber(wrong).isValid).toBe(false);
  });
});

describe('expiration date', () => {
  const june = new Date('2026-06-15T12:00:00Z');
  const valid = { isValid: true, isPotentiallyValid: true };
  const typing = { isValid: false, isPotentiallyValid: true };
  const wrong = { isValid: false, isPotentiallyValid: false };

  it('accepts MM / YY and MM/YYYY from this year to this year + 19', () => {
    expect(validateExpirationDate('12 / 26', june)).toEqual(valid);
    expect(validateExpirationDate('06 / 26', june)).toEqual(valid);
    expect(validateExpirationDate('01 / 27', june)).toEqual(valid);
    expect(validateExpirationDate('01/2045', june)).toEqual(valid);
    expect(validateExpirationDate('1/28', june)).toEqual(valid);
    expect(validateExpirationDate('01/2046', june)).toEqual(wrong);
    expect(validateExpirationDate('01 / 46', june)).toEqual(wrong);
    expect(validateExpirationDate('06 / 25', june)).toEqual(wrong);
  });

  it('refuses a past month of this year', () => {
    expect(validateExpirationDate('05 / 26', june)).toEqual(wrong);
    expect(checkExpirationDate('05/2026', june)).toEqual({ ok: false, problem: 'expired', isPotentiallyValid: false });
  });

  it('refuses month 13 and is potentially valid only while typing can still make it valid', () => {
    expect(validateExpirationDate('13 / 27', june)).toEqual(wrong);
    expect(validateExpirationDate('00', june)).toEqual(wrong);
    for (const partial of ['', '0', '1', '12', '12 / ', '12 / 2', '12 / 20', '12 / 202']) {
      expect(validateExpirationDate(partial, june), partial).toEqual(typing);
    }
    expect(validateExpirationDate('12 / 1', june)).toEqual(wrong);
    expect(validateExpirationDate('12 / 20301', june)).toEqual(wrong);
    expect(validateExpirationDate('soon', june)).toEqual(wrong);
  });

  it('names what is wrong, for the provider codes', () => {
    expect(checkExpirationDate('', june)).toMatchObject({ problem: 'required' });
    expect(checkExpirationDate('soon', june)).toMatchObject({ problem: 'format' });
    expect(checkExpirationDate('13/27', june)).toMatchObject({ problem: 'month' });
    expect(checkExpirationDate('12/2025', june)).toMatchObject({ problem: 'year' });
    expect(checkExpirationDate('12/2026', june)).toEqual({ ok: true, month: 12, year: 2026 });
    expect(checkExpirationDate('1/28', june)).toEqual({ ok: true, month: 1, year: 2028 });
  });

  it('keeps a card valid until its month has ended everywhere (UTC-12), whatever the time zone', () => {
    // 05:00 UTC on 1 December is still 30 November in UTC-12 (and in the Americas).
    expect(validateExpirationDate('11 / 26', new Date('2026-12-01T05:00:00Z'))).toEqual(valid);
    expect(validateExpirationDate('11 / 26', new Date('2026-12-01T11:59:59Z'))).toEqual(valid);
    expect(validateExpirationDate('11 / 26', new Date('2026-12-01T12:00:00Z'))).toEqual(wrong);
    // The year turns the same way.
    expect(validateExpirationDate('12 / 26', new Date('2027-01-01T06:00:00Z'))).toEqual(valid);
    expect(validateExpirationDate('12 / 26', new Date('2027-01-01T12:00:00Z'))).toEqual(wrong);
    expect(validateExpirationDate('01/2046', new Date('2027-01-01T06:00:00Z'))).toEqual(wrong);
    expect(validateExpirationDate('01/2046', new Date('2027-01-01T12:00:00Z'))).toEqual(valid);
  });
});

describe('hasExpired (saved cards)', () => {
  it('says a card has expired once its month has ended in the last time zone on Earth', () => {
    // 1 December 2026, 11:00 UTC is still 30 November in UTC-12: an 11/2026 card has not expired yet.
    expect(hasExpired(11, 2026, new Date('2026-12-01T11:00:00Z'))).toBe(false);
    expect(hasExpired(11, 2026, new Date('2026-12-01T12:00:00Z'))).toBe(true);
    expect(hasExpired(12, 2025, new Date('2026-06-01T00:00:00Z'))).toBe(true);
    expect(hasExpired(1, 2027, new Date('2026-12-31T23:00:00Z'))).toBe(false);
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
    expect(validatePostalCode('')).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validatePostalCode('-1234').isValid).toBe(false);
  });

  it('counts the first two characters as typed, nothing trimmed', () => {
    for (const value of ['a ', ' a1', ' 12345', '1 2', 'a-', '  ']) {
      expect(validatePostalCode(value), JSON.stringify(value)).toEqual({ isValid: false, isPotentiallyValid: false });
    }
  });

  it('accepts any character after the first two, and letters and digits of any script', () => {
    for (const value of ['K1A 0B1', '12345-6789', 'AB12 ', '12.345', 'AB#1', 'AB/12', 'SW1A 1AÄ', 'ÅB 12', 'éé', '١٢٣٤٥']) {
      expect(validatePostalCode(value), value).toEqual({ isValid: true, isPotentiallyValid: true });
    }
    expect(validatePostalCode('É')).toEqual({ isValid: false, isPotentiallyValid: true });
    expect(validatePostalCode('ÅÅÅÅÅÅÅÅÅÅ').isValid).toBe(true);
    expect(validatePostalCode('ÅÅÅÅÅÅÅÅÅÅÅ').isValid).toBe(false);
  });
});
