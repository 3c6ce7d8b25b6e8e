import { z } from 'zod';
import { orderSchema } from '../../orders/order.ts';
import { declineSchema, paymentSummarySchema } from '../../payments/payment.ts';
import { problemSchema } from '../../http/problem.ts';

export const payBody = z.object({
  nonce: z.string('Send the payment method nonce.').min(1, 'Send the payment method nonce.').max(4096),
  deviceData: z.string().max(16_384).optional(),
  saveCard: z
    .boolean()
    .optional()
    .describe('Save the card for the signed-in shopper when the payment succeeds; ignored for guests.'),
  botcheck: z
    .string('Send the bot-check token.')
    .min(1, 'Send the bot-check token.')
    .max(16_384)
    .describe('The ALTCHA v2 payload: base64 of JSON `{ challenge, solution }`.'),
});

export const paidResponse = z.object({ payment: paymentSummarySchema, order: orderSchema });

/** 402 `payment_declined` or `three_d_secure_required`: why, and the declined attempt. */
export const paymentDeclinedSchema = problemSchema.extend({
  decline: declineSchema,
  payment: z.object({ id: z.string(), status: z.literal('declined') }),
});
