import { z } from 'zod';
import { adminPaymentSchema, decodeCursor } from '../../admin/payments.query.ts';
import { paymentStatusSchema } from '../../payments/payment.ts';
import { refundSchema } from '../../refunds/refund.ts';

const isoDateTime = z.iso.datetime({ offset: true, error: 'Use an ISO 8601 date and time, e.g. 2026-11-01T00:00:00Z.' });
const minorUnits = z.coerce.number('Use an amount in minor units.').int('Use an amount in minor units.').min(0).max(Number.MAX_SAFE_INTEGER);

export const listPaymentsQuery = z.object({
  status: paymentStatusSchema.optional(),
  from: isoDateTime.optional().describe('Created at or after (inclusive).'),
  to: isoDateTime.optional().describe('Created before (exclusive).'),
  minAmount: minorUnits.optional().describe('Minor units, inclusive.'),
  maxAmount: minorUnits.optional().describe('Minor units, inclusive.'),
  customerEmail: z.string().trim().max(254).optional(),
  cardLastFour: z.string().regex(/^\d{4}$/, 'Use the card\'s last four digits.').optional(),
  paymentMethodType: z.string().max(64).optional().describe('The gateway\'s paymentInstrumentType, e.g. `credit_card`.'),
  cursor: z
    .string()
    .max(512)
    .transform((text, context) => {
      const cursor = decodeCursor(text);
      if (cursor === null) context.addIssue({ code: 'custom', message: 'Use the nextCursor of the previous page.' });
      return cursor ?? undefined;
    })
    .optional()
    .describe('The previous page\'s `nextCursor`.'),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

export const paymentsPage = z.object({
  payments: z.array(adminPaymentSchema),
  nextCursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last page.'),
});

export const adminActionSchema = z.object({ at: z.string(), action: z.string(), actorAccountId: z.string(), status: z.number().int() });

export const paymentDetail = z.object({
  payment: adminPaymentSchema,
  attempts: z.array(adminPaymentSchema).describe('Every attempt to pay the same order, oldest first (this one included).'),
  refunds: z.array(refundSchema).describe('Its refunds and void, oldest first.'),
  adminActions: z.array(adminActionSchema).describe('What admins did with this payment, oldest first.'),
});

export const refundBody = z.object({
  amount: z
    .number('Use an amount in minor units.')
    .int('Use an amount in minor units.')
    .positive('Refund at least one minor unit.')
    .max(Number.MAX_SAFE_INTEGER)
    .optional()
    .describe('Minor units, at most what is left; leave it out to refund all that is left.'),
});

/** A refund or void done, with the payment as it now stands. */
export const refundDone = z.object({ refund: refundSchema, payment: adminPaymentSchema });

export const paymentIdParams = z.object({ id: z.string().min(1).max(64) });
