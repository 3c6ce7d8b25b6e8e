import { z } from 'zod';
import type { RefundRow } from '../db/schema.ts';
import { moneySchema } from '../money.ts';

/** A refund or a void as the merchant sees it on a payment. */
export const refundSchema = z.object({
  id: z.string(),
  kind: z.enum(['refund', 'void']),
  amount: moneySchema.describe('What was given back; a void gives back the whole payment.'),
  transactionId: z.string().nullable().describe("The refund's credit transaction at the gateway; null for a void."),
  actorAccountId: z.string(),
  createdAt: z.string(),
});
export type Refund = z.infer<typeof refundSchema>;

export function toRefund(row: RefundRow): Refund {
  return {
    id: row.id,
    kind: row.kind,
    amount: { amount: row.amount, currency: row.currency },
    transactionId: row.transaction_id,
    actorAccountId: row.actor_account_id,
    createdAt: row.created_at,
  };
}
