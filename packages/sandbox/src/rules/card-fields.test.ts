import { cardNumber } from 'card-validator/dist/card-number.js';
import { cardholderName } from 'card-validator/dist/cardholder-name.js';
import { cvv } from 'card-validator/dist/cvv.js';
import creditCardType from 'credit-card-type';
import cardTypes from 'credit-card-type/dist/lib/card-types.js';
import { describe, expect, it } from 'vitest';
import {
  BRANDS as BRAND_TABLE,
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

  // The rules are ours (the libraries' modules cost the frame script 5.5 KB), their answers must stay the libraries'.
  const theirBrands = (digits: string) =>
    creditCardType(digits).map(({ type, niceType, code, gaps, lengths }) => ({ type, niceType, code, gaps, lengths }));
  const ourBrands = (digits: string) =>
    detectBrands(digits).map(({ type, niceType, code, gaps, lengths }) => ({ type, niceType, code, gaps, lengths }));
  const differsFromTheLibraries = (digits: string): boolean => {
    const theirs = cardNumber(digits, { luhnValidateUnionPay: true });
    const ours = validateNumber(digits);
    return (
      JSON.stringify(ourBrands(digits)) !== JSON.stringify(theirBrands(digits)) ||
      ours.isValid !== theirs.isValid ||
      ours.isPotentiallyValid !== theirs.isPotentiallyValid
    );
  };

  it("detects the brands credit-card-type's index does, and judges numbers as card-validator's cardNumber does", () => {
    const numbers: string[] = [];
    // Every prefix of up to three digits (where the brands part ways), then on every two-digit prefix whole numbers of
    // every length, and one with a wrong check digit.
    for (let length = 1; length <= 3; length += 1) {
      for (let n = 0; n < 10 ** length; n += 1) numbers.push(String(n).padStart(length, '0'));
    }
    for (let n = 0; n < 100; n += 1) {
      for (let length = 11; length <= 20; length += 1) numbers.push(luhnNumber(String(n).padStart(2, '0'), length));
      const number = luhnNumber(String(n).padStart(2, '0'), 16);
      numbers.push(`${number.slice(0, -1)}${(Number(number.slice(-1)) + 1) % 10}`);
    }
    expect(numbers.filter(differsFromTheLibraries)).toEqual([]);
  });

  it('answers as the libraries at both ends of every prefix credit-card-type lists, one beyond, and every start of them', () => {
    const numbers = new Set<string>();
    for (const { patterns } of Object.values(cardTypes)) {
      for (const pattern of patterns) {
        const [from = 0, to = from] = Array.isArray(pattern) ? pattern : [pattern];
        for (const end of [from - 1, from, to, to + 1]) {
          const digits = String(end);
          for (let length = 1; length <= digits.length; length += 1) numbers.add(digits.slice(0, length));
          for (const length of [12, 16, 19]) numbers.add(luhnNumber(digits, length));
        }
      }
    }
    expect(numbers.size).toBeGreaterThan(1000);
    expect([...numbers].filter(differsFromTheLibraries)).toEqual([]);
    expect(ourBrands('')).toEqual(theirBrands(''));
  });

  it("holds credit-card-type's brands, their order and prefixes", () => {
    const theirs = creditCardType('').map(({ type }) => cardTypes[type]);
    expect(BRAND_TABLE.map(({ type }) => type)).toEqual(theirs.map((brand) => brand?.type));
    for (const brand of BRAND_TABLE) {
      const patterns = cardTypes[brand.type]?.patterns.map((pattern) =>
        Array.isArray(pattern) ? pattern.map(String) : [String(pattern), String(pattern)],
      );
      expect(brand.prefixes, brand.type).toEqual(patterns);
    }
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

describe('cvv and cardholder name against card-validator', () => {
  it('answers as its cvv() and cardholderName() do', () => {
    const values = ['', '1', '12', '123', '1234', '12345', '12a', 'abc', ' 123', '1 2'];
    for (const value of values) {
      for (const size of [3, 4, null] as const) {
        const { isValid, isPotentiallyValid } = cvv(value, size ?? [3, 4]);
        expect(validateCvv(value, size), `${value} ${size}`).toEqual({ isValid, isPotentiallyValid });
      }
    }
    const names = [
      '',
      'A',
      'Ada Lovelace',
      '123',
      '12-3 4',
      '4111 1111',
      'J. 2nd',
      ' ',
      '-',
      'a'.repeat(255),
      'a'.repeat(256),
      '1'.repeat(256),
    ];
    for (const value of names) {
      const { isValid, isPotentiallyValid } = cardholderName(value);
      expect(validateCardholderName(value), value).toEqual({ isValid, isPotentiallyValid });
    }
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
