import { z } from 'zod';
import { minorUnits } from './currencies.ts';

/** Money inside the product: integer minor units and an ISO 4217 currency. */
export const moneySchema = z.object({ amount: z.number().int(), currency: z.string().length(3) });
export type Money = z.infer<typeof moneySchema>;

/** Money -> the decimal string the gateway SDK wants ("2000.00"). Only at the gateway edge. */
export function toDecimalString(money: Money): string {
  if (!Number.isSafeInteger(money.amount) || money.amount < 0)
    throw new RangeError(`amount must be a non-negative integer, got ${money.amount}`);
  const digits = minorUnits(money.currency);
  if (digits === 0) return String(money.amount);
  const text = String(money.amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/** The gateway's decimal string ("24.50") -> Money. Only at the gateway edge. */
export function fromDecimalString(text: string, currency: string): Money {
  const digits = minorUnits(currency);
  const match = /^(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (match === null) throw new RangeError(`not a decimal amount: ${text}`);
  const [, whole = '0', fraction = ''] = match;
  if (fraction.length > digits) throw new RangeError(`${text} has more than ${digits} decimals for ${currency}`);
  return { amount: Number(whole) * 10 ** digits + Number(fraction.padEnd(digits, '0') || '0'), currency };
}
