import { MINOR_UNITS } from '../../../format/currencies.gen.ts';
import { formatMoney } from '../../../format/money.ts';

/** A figure per currency, as the overview's API gives it (largest first). */
export interface CurrencyTotal {
  currency: string;
  total: number;
}

/**
 * The figure as text, one per currency: sums in different currencies are never added up (no exchange rate is
 * assumed). With none, zero in `fallback` (the currency of the shop's volume, else euros).
 */
export function perCurrency(totals: readonly CurrencyTotal[], fallback: string): string[] {
  if (totals.length === 0) return [formatMoney({ amount: 0, currency: fallback })];
  return totals.map((entry) => formatMoney({ amount: entry.total, currency: entry.currency }));
}

/**
 * A chart's value (exact) and axis (compact) formats for amounts in minor units of `currency`, and the axis's smallest
 * step: one major unit (the axis shows whole units, so a smaller step would label €0 several times).
 */
export function moneyFormats(currency: string): {
  value: (amount: number) => string;
  axis: (amount: number) => string;
  step: number;
} {
  const compact = new Intl.NumberFormat('en', { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 });
  const step = 10 ** (MINOR_UNITS[currency] ?? 2);
  return {
    value: (amount) => formatMoney({ amount: Math.round(amount), currency }),
    axis: (amount) => compact.format(amount / step),
    step,
  };
}
