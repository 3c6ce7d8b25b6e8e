import type { FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from '../../context.ts';
import { InvalidWebhookError } from '../../gateway/gateway-webhooks.ts';
import type { GatewayNotification, WebhookVerifier } from '../../gateway/gateway-webhooks.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { acceptFormBodies } from '../../http/form-body.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { receiveNotification } from '../../webhooks/notifications.ts';
import { WEBHOOK_BODY_LIMIT, webhookBody, webhookResponse } from './gateway-webhooks.schemas.ts';

/**
 * The gateway's webhook endpoint, in a scope of its own: only here does the server read form-encoded bodies (the
 * gateway posts `bt_signature` and `bt_payload` as a form), and only this route is exempt from the JSON-only check.
 */
export async function gatewayWebhookRoutes(app: ApiInstance, ctx: AppContext): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    acceptFormBodies(scope);

    scope.post(
      '/api/gateway/webhooks',
      {
        config: { crossSite: 'signed-server-post' },
        bodyLimit: WEBHOOK_BODY_LIMIT,
        schema: {
          summary: "The gateway's signed webhook notifications (form-encoded bt_signature + bt_payload); each is acted on once",
          tags: ['gateway'],
          consumes: ['application/x-www-form-urlencoded'],
          body: webhookBody,
          response: {
            200: webhookResponse,
            ...problemResponses(
              'validation_failed',
              'webhook_signature_invalid',
              'payload_too_large',
              'unsupported_media_type',
              'gateway_not_configured',
            ),
          },
        },
      },
      async (request) => {
        if (ctx.webhooks === null) throw new ProblemError('gateway_not_configured');
        const notification = await verified(ctx.webhooks, request, request.body);
        const outcome = await receiveNotification(ctx.db, notification);
        request.log.info(
          { notification: outcome.id, kind: notification.kind, outcome: outcome.kind },
          'webhook notification received',
        );
        return { status: outcome.kind };
      },
    );
  });
}

/** The verified notification, or 401 `webhook_signature_invalid`. */
async function verified(
  verifier: WebhookVerifier,
  request: FastifyRequest,
  body: { bt_signature: string; bt_payload: string },
): Promise<GatewayNotification> {
  try {
    return await verifier.parse(body.bt_signature, body.bt_payload);
  } catch (error) {
    if (!(error instanceof InvalidWebhookError)) throw error;
    // Never the payload: a forged one is the sender's text, and a genuine one carries customer details.
    request.log.warn({ reason: error.message }, 'webhook notification refused: signature does not verify');
    throw new ProblemError('webhook_signature_invalid');
  }
}
