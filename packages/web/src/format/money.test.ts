import { describe, expect, it } from 'vitest';
import { formatMoney, toDecimalString, toMinorUnits } from './money.ts';

describe('formatMoney', () => {
  it('turns minor units into the currency format', () => {
    expect(formatMoney({ amount: 200000, currency: 'EUR' })).toBe('€2,000.00');
    expect(formatMoney({ amount: 1200, currency: 'USD' })).toBe('$12.00');
  });

  it('respects currencies without minor units', () => {
    expect(formatMoney({ amount: 1500, currency: 'JPY' })).toBe('¥1,500');
    expect(formatMoney({ amount: 1500, currency: 'XOF' })).toMatch(/^F\s?CFA\s?1,500$/);
  });

  it('reads amounts in ISO 4217 minor units where display conventions drop them (HUF, IDR)', () => {
    expect(formatMoney({ amount: 123456, currency: 'HUF' })).toMatch(/^HUF\s1,234\.56$/);
    expect(formatMoney({ amount: 123456, currency: 'IDR' })).toMatch(/^IDR\s1,234\.56$/);
  });
});

describe('toDecimalString', () => {
  it("writes minor units in the provider's decimal form, with the currency's digits", () => {
    expect(toDecimalString({ amount: 2400, currency: 'EUR' })).toBe('24.00');
    expect(toDecimalString({ amount: 5, currency: 'EUR' })).toBe('0.05');
    expect(toDecimalString({ amount: 1500, currency: 'JPY' })).toBe('1500');
  });
});

describe('toMinorUnits', () => {
  it("reads what a person types, with a point or a comma, in the currency's minor units", () => {
    expect(toMinorUnits('12', 'EUR')).toBe(1200);
    expect(toMinorUnits('12.5', 'EUR')).toBe(1250);
    expect(toMinorUnits(' 7,05 ', 'EUR')).toBe(705);
    expect(toMinorUnits('1500', 'JPY')).toBe(1500);
    expect(toMinorUnits('1.234', 'KWD')).toBe(1234);
  });

  it('refuses what is not an amount, or has more decimals than the currency', () => {
    for (const [text, currency] of [
      ['', 'EUR'],
      ['-1', 'EUR'],
      ['1.2.3', 'EUR'],
      ['12.345', 'EUR'],
      ['1.5', 'JPY'],
      ['abc', 'EUR'],
    ]) {
      expect(toMinorUnits(text as string, currency as string), text).toBeNull();
    }
  });
});
