import type { Money } from '../api/types.ts';
import { MINOR_UNITS } from './currencies.gen.ts';

/** The provider's decimal form of an amount ('20.00'), as the checkout's 3-D Secure option takes it. */
export function toDecimalString({ amount, currency }: Money): string {
  const digits = MINOR_UNITS[currency] ?? 2;
  const text = String(amount).padStart(digits + 1, '0');
  return digits === 0 ? text : `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * Formats integer minor units in their currency, e.g. `{ amount: 2000, currency: 'EUR' }` -> "€20.00". The digits are
 * ISO 4217's, as the server stores amounts (HUF 1234 is 12.34 Ft, though Intl would show forints without decimals).
 */
export function formatMoney({ amount, currency }: Money, locale = 'en'): string {
  const digits = MINOR_UNITS[currency] ?? 2;
  const format = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return format.format(amount / 10 ** digits);
}

/**
 * An amount a person typed ('12', '12.5', '12,50') in the currency's minor units (1250); null when it is not an amount
 * or has more decimals than the currency.
 */
export function toMinorUnits(text: string, currency: string): number | null {
  const digits = MINOR_UNITS[currency] ?? 2;
  const match = /^(\d+)(?:[.,](\d*))?$/.exec(text.trim());
  if (match === null) return null;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0');
  return Number.isSafeInteger(minor) ? minor : null;
}
