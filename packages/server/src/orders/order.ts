import { z } from 'zod';
import { moneySchema } from '../money.ts';
import { paymentSummarySchema } from '../payments/payment.ts';

/** Order statuses and their allowed moves, from one constant: the union and the schema derive from it. */
export const ORDER_TRANSITIONS = {
  pending: ['paid'],
  // The whole payment given back by the merchant (src/refunds/): voided before settlement, refunded after.
  paid: ['refunded', 'voided'],
  refunded: [],
  voided: [],
} as const satisfies Record<string, readonly string[]>;

export type OrderStatus = keyof typeof ORDER_TRANSITIONS;
export const ORDER_STATUSES = Object.keys(ORDER_TRANSITIONS) as [OrderStatus, ...OrderStatus[]];
export const orderStatusSchema = z.enum(ORDER_STATUSES);

export function canTransitionOrder(from: OrderStatus, to: OrderStatus): boolean {
  return (ORDER_TRANSITIONS[from] as readonly OrderStatus[]).includes(to);
}

export const orderItemSchema = z.object({
  productId: z.string(),
  name: z.string(),
  quantity: z.number().int(),
  unitPrice: moneySchema,
  total: moneySchema,
});
export type OrderItem = z.infer<typeof orderItemSchema>;

export const orderSchema = z.object({
  id: z.string(),
  number: z.number().int().describe('What the shopper reads on the receipt; `id` stays the key.'),
  status: orderStatusSchema,
  items: z.array(orderItemSchema),
  total: moneySchema,
  createdAt: z.string(),
  payment: paymentSummarySchema.optional().describe('The successful attempt, else the latest one.'),
  payments: z.array(paymentSummarySchema).describe('Every payment attempt, oldest first.'),
});
export type Order = z.infer<typeof orderSchema>;

/** Who may see an order: its account, or for a guest order the guest's session. */
export interface Owner {
  accountId: string | null;
  sessionId: string;
}
