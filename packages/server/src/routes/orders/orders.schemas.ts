import { z } from 'zod';
import { moneySchema } from '../../money.ts';
import { orderSchema } from '../../orders/order.ts';
import { botcheckSettingsSchema } from '../botcheck/botcheck.schemas.ts';

export const orderIdParams = z.object({ id: z.string().min(1).max(64) });

export const createOrderBody = z.object({
  items: z
    .array(
      z.object({
        productId: z.string().min(1, 'Choose a product.').max(64),
        quantity: z.number('Enter a quantity.').int('Use a whole number.').min(1, 'At least 1.').max(99, 'At most 99.'),
      }),
    )
    .min(1, 'Add at least one item.')
    .max(50, 'At most 50 lines.'),
});

export const orderResponse = z.object({ order: orderSchema });
export const ordersResponse = z.object({ orders: z.array(orderSchema) });

export const checkoutSessionSchema = z.object({
  clientToken: z
    .string()
    .describe("For the gateway's client SDK; bound to no customer (saved methods are listed and saved through this API)."),
  amount: moneySchema,
  checkout: z.object({ cardholderName: z.enum(['optional', 'required']), vaultCard: z.boolean(), vaultManager: z.boolean() }),
  botcheck: botcheckSettingsSchema,
});
