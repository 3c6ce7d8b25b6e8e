import { z } from 'zod';

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
