import type { Money } from '../api/types.ts';
import { MINOR_UNITS } from './currencies.gen.ts';

/**
 * Formats integer minor units in their currency, e.g. `{ amount: 2000, currency: 'EUR' }` -> "€20.00". The digits are
 * ISO 4217's, as the server stores amounts (HUF 1234 is 12.34 Ft, though Intl would show forints without decimals).
 */
export function formatMoney({ amount, currency }: Money, locale = 'en'): string {
  const digits = MINOR_UNITS[currency] ?? 2;
  const format = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: digits, maximumFractionDigits: digits });
  return format.format(amount / 10 ** digits);
}
