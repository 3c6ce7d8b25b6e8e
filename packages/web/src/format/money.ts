import type { Money } from '../api/types.ts';

/** Formats integer minor units in their currency, e.g. `{ amount: 2000, currency: 'EUR' }` -> "€20.00". */
export function formatMoney({ amount, currency }: Money, locale = 'en'): string {
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency });
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(amount / 10 ** digits);
}
