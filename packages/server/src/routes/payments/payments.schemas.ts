import { z } from 'zod';

export const idempotencyKeySchema = z
  .string({ error: 'Send an Idempotency-Key header.' })
  .min(1, 'Send an Idempotency-Key header.')
  .max(255, 'Use at most 255 characters.');

export const payBody = z.object({
  nonce: z.string('Send the payment method nonce.').min(1, 'Send the payment method nonce.').max(4096),
  deviceData: z.string().max(16_384).optional(),
  botcheck: z.string('Send the bot-check token.').min(1, 'Send the bot-check token.').max(16_384),
});
