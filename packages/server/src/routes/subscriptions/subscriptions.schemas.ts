import { z } from 'zod';
import { subscriptionSchema } from '../../subscriptions/subscriptions.ts';
import { nonceSchema, paymentMethodIdParams } from '../payment-methods/payment-methods.schemas.ts';

export const subscriptionIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a subscription id.'),
});

/** Pay with a saved card (`paymentMethodId`) or a new card (`nonce`, saved on the way): exactly one. */
export const subscribeBody = z
  .object({
    planId: z.string('Choose a plan.').min(1, 'Choose a plan.').max(64),
    paymentMethodId: paymentMethodIdParams.shape.id.optional(),
    nonce: nonceSchema.optional(),
    botcheck: z
      .string()
      .max(8192)
      .optional()
      .describe("With a nonce: a bot-check token for the `payment` action (a new card's first charge is a payment)."),
  })
  .refine((body) => (body.paymentMethodId === undefined) !== (body.nonce === undefined), {
    message: 'Send either a saved payment method id or a nonce.',
    path: ['paymentMethodId'],
  });

export const subscriptionsResponse = z.object({ subscriptions: z.array(subscriptionSchema) });
export const subscriptionResponse = z.object({ subscription: subscriptionSchema });
