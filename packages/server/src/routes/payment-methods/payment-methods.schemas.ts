import { z } from 'zod';
import { problemSchema } from '../../http/problem.ts';
import { savedMethodSchema } from '../../vault/saved-methods.ts';

/** A gateway token goes into the SDK's URL paths: only the characters the gateway allows in ids (gateway.md). */
export const paymentMethodDeleted = z.undefined().describe('Deleted.');

export const paymentMethodIdParams = z.object({
  id: z
    .string()
    .min(1)
    .max(64)
    .regex(/^[A-Za-z0-9_-]+$/, 'Not a payment method id.'),
});

export const nonceSchema = z.string('Send the payment method nonce.').min(1, 'Send the payment method nonce.').max(4096);

export const addPaymentMethodBody = z.object({
  nonce: nonceSchema.describe("A card tokenized by the checkout's card view."),
  makeDefault: z.boolean().optional(),
  botcheck: z
    .string()
    .max(8192)
    .optional()
    .describe('The bot-check token, when the merchant guards this action (`GET /api/botcheck/settings`).'),
});

/**
 * What the checkout needs to add a card outside an order. The token is not bound to the shopper's customer: the checkout
 * then opens on its card form alone (no saved list, no "Save card"), and the server saves the nonce it gives
 * (`POST /api/payment-methods`: verified, duplicates refused per shopper).
 */
export const vaultSessionSchema = z.object({
  clientToken: z.string().describe("For the gateway's client SDK: tokenizes one card, saved by `POST /api/payment-methods`."),
  checkout: z.object({ cardholderName: z.enum(['optional', 'required']) }),
});

export const paymentMethodsResponse = z.object({ paymentMethods: z.array(savedMethodSchema) });
export const paymentMethodResponse = z.object({ paymentMethod: savedMethodSchema });
export const savedMethodNonceResponse = z.object({ nonce: z.string().describe('Single-use; pay an order with it.') });

/** 422 `card_verification_failed`: what the gateway's verification answered (`payment_method_invalid` has none). */
export const verificationFailedSchema = problemSchema.extend({
  verification: z.optional(
    z.object({
      status: z.string(),
      processorResponseCode: z.string().nullable(),
      processorResponseText: z.string().nullable(),
      gatewayRejectionReason: z.string().nullable(),
    }),
  ),
});

/** 409: a card already saved (`payment_method_duplicate`), or a wallet, answered with the one saved before. */
export const alreadySavedSchema = problemSchema.extend({
  paymentMethod: z.optional(savedMethodSchema.describe('`wallet_already_saved`: the wallet the shopper saved before.')),
});

export const alreadySavedResponse = {
  description:
    '`payment_method_duplicate`: This credit card already exists as a saved payment method.\n`wallet_already_saved`: the same PayPal account, Venmo user or Apple Pay / Google Pay card is saved already (its `paymentMethod`; nothing new is kept)',
  content: { 'application/problem+json': { schema: alreadySavedSchema } },
};
