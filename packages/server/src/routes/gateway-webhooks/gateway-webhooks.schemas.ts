import { z } from 'zod';

/**
 * A notification's subject is the whole record (a subscription lists every charge it made), so the route takes more
 * than the API's usual 64 KiB.
 */
export const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/** What the gateway posts (form-encoded): the signature and the base64 notification it signs. */
export const webhookBody = z.object({
  bt_signature: z.string('The notification is not signed.').min(1, 'The notification is not signed.').max(2048),
  bt_payload: z.string('The notification has no payload.').min(1, 'The notification has no payload.').max(WEBHOOK_BODY_LIMIT),
});

export const webhookResponse = z.object({
  status: z
    .enum(['processed', 'duplicate'])
    .describe('`duplicate`: this notification was received before and is not acted on again.'),
});
