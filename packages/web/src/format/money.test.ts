import { describe, expect, it } from 'vitest';
import { formatMoney } from './money.ts';

describe('formatMoney', () => {
  it('turns minor units into the currency format', () => {
    expect(formatMoney({ amount: 200000, currency: 'EUR' })).toBe('€2,000.00');
    expect(formatMoney({ amount: 1200, currency: 'USD' })).toBe('$12.00');
  });

  it('respects currencies without minor units', () => {
    expect(formatMoney({ amount: 1500, currency: 'JPY' })).toBe('¥1,500');
  });
});
