import { describe, expect, it } from 'vitest';
import { moneyFormats, perCurrency } from './currency-figures.ts';

describe("the overview's figures per currency", () => {
  it('gives one figure per currency, never a sum across currencies', () => {
    expect(
      perCurrency(
        [
          { currency: 'EUR', total: 123_450 },
          { currency: 'USD', total: 5_000 },
          { currency: 'JPY', total: 1_200 },
        ],
        'EUR',
      ),
    ).toEqual(['€1,234.50', '$50.00', '¥1,200']);
  });

  it('gives zero in the fallback currency when nothing was taken', () => {
    expect(perCurrency([], 'EUR')).toEqual(['€0.00']);
  });

  it("formats a chart's values and axis in the currency's own minor units", () => {
    expect(moneyFormats('JPY').value(1_200)).toBe('¥1,200');
    expect(moneyFormats('EUR').axis(250_000)).toBe('€2.5K');
    expect(moneyFormats('BHD').value(1_234)).toMatch(/^BHD\s1\.234$/);
  });
});
