import { describe, expect, it } from 'vitest';
import { toDecimalString } from './money.ts';

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
