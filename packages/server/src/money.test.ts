import { describe, expect, it } from 'vitest';
import { fromDecimalString, toDecimalString } from './money.ts';

describe('toDecimalString', () => {
  it('turns minor units into the gateway decimal string', () => {
    expect(toDecimalString({ amount: 200000, currency: 'EUR' })).toBe('2000.00');
    expect(toDecimalString({ amount: 5, currency: 'EUR' })).toBe('0.05');
    expect(toDecimalString({ amount: 0, currency: 'EUR' })).toBe('0.00');
    expect(toDecimalString({ amount: 1234, currency: 'JPY' })).toBe('1234');
    expect(toDecimalString({ amount: 1234, currency: 'KWD' })).toBe('1.234');
  });

  it('follows ISO 4217 where display conventions differ: HUF and IDR have 2 digits, XOF none, UYW four', () => {
    expect(toDecimalString({ amount: 1234, currency: 'HUF' })).toBe('12.34');
    expect(toDecimalString({ amount: 1234, currency: 'IDR' })).toBe('12.34');
    expect(toDecimalString({ amount: 1234, currency: 'XOF' })).toBe('1234');
    expect(toDecimalString({ amount: 12345, currency: 'UYW' })).toBe('1.2345');
  });

  it('refuses a code that is not an ISO 4217 currency', () => {
    expect(() => toDecimalString({ amount: 100, currency: 'XXX' })).toThrow(RangeError);
    expect(() => toDecimalString({ amount: 100, currency: 'eur' })).toThrow(RangeError);
  });

  it('refuses fractions and negatives', () => {
    expect(() => toDecimalString({ amount: 1.5, currency: 'EUR' })).toThrow(RangeError);
    expect(() => toDecimalString({ amount: -1, currency: 'EUR' })).toThrow(RangeError);
  });
});

describe('fromDecimalString', () => {
  it("turns the gateway decimal string into minor units, per the currency's digits", () => {
    expect(fromDecimalString('24.50', 'EUR')).toEqual({ amount: 2450, currency: 'EUR' });
    expect(fromDecimalString('2000', 'EUR')).toEqual({ amount: 200000, currency: 'EUR' });
    expect(fromDecimalString('0.5', 'EUR')).toEqual({ amount: 50, currency: 'EUR' });
    expect(fromDecimalString('1500', 'JPY')).toEqual({ amount: 1500, currency: 'JPY' });
    expect(fromDecimalString('1.234', 'KWD')).toEqual({ amount: 1234, currency: 'KWD' });
  });

  it('refuses what is not a decimal amount or has too many decimals', () => {
    expect(() => fromDecimalString('24.505', 'EUR')).toThrow(RangeError);
    expect(() => fromDecimalString('-1.00', 'EUR')).toThrow(RangeError);
    expect(() => fromDecimalString('abc', 'EUR')).toThrow(RangeError);
  });
});
