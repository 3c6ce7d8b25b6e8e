import { z } from 'zod';

/** Money inside the product: integer minor units and an ISO 4217 currency. */
export const moneySchema = z.object({ amount: z.number().int(), currency: z.string().length(3) });
export type Money = z.infer<typeof moneySchema>;

/** Digits after the decimal point per currency; ISO 4217 exceptions to the usual two. */
const MINOR_UNIT_DIGITS: Record<string, number> = { JPY: 0, KRW: 0, ISK: 0, CLP: 0, VND: 0, BHD: 3, KWD: 3, JOD: 3, OMR: 3, TND: 3 };

/** Money -> the decimal string the gateway SDK wants ("2000.00"). Only at the gateway edge. */
export function toDecimalString(money: Money): string {
  if (!Number.isSafeInteger(money.amount) || money.amount < 0) throw new RangeError(`amount must be a non-negative integer, got ${money.amount}`);
  const digits = MINOR_UNIT_DIGITS[money.currency] ?? 2;
  if (digits === 0) return String(money.amount);
  const text = String(money.amount).padStart(digits + 1, '0');
  return `${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
