import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { acceptFormBodies } from '../../http/form-body.ts';
import { problemOf, sendProblem } from '../../plugins/errors.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import type { PayOrderResult } from '../../payments/pay-order.ts';
import { declineCode, takePayment } from './payments.routes.ts';

/** The product's page that posts here (packages/web/plain-checkout.html): failures send the shopper back to it. */
export const FORM_CHECKOUT_PAGE = '/plain-checkout.html';

/** The provider drop-in's form fields (`payment_method_nonce`, `device_data`), the order and the bot-check token. */
export const formPaymentBody = z.object({
  order_id: z.string('Send the order id.').min(1, 'Send the order id.').max(64),
  payment_method_nonce: z.string('Send the payment method nonce.').min(1, 'Send the payment method nonce.').max(4096),
  device_data: z.string().max(16_384).optional(),
  botcheck: z.string('Send the bot-check token.').min(1, 'Send the bot-check token.').max(16_384),
});

const redirected = z.undefined().describe(`To the receipt, or to ${FORM_CHECKOUT_PAGE}?order=…&error=<problem code>.`);

/** Refusals that are not the shopper's doing: answered as they are (a problem document), never turned into a page. */
const REFUSED_AS_IS = new Set(['cross_site_request', 'unsupported_media_type']);

function receipt(orderId: string): string {
  return `/orders/${encodeURIComponent(orderId)}/receipt`;
}

/** The page again, saying what went wrong (a stable problem code; the page words it from its catalogue). */
function pageWithError(orderId: string | null, code: string): string {
  const query = new URLSearchParams({ ...(orderId === null ? {} : { order: orderId }), error: code });
  return `${FORM_CHECKOUT_PAGE}?${query.toString()}`;
}

function locationOf(orderId: string, result: PayOrderResult): string {
  switch (result.kind) {
    case 'succeeded':
    case 'order_already_paid':
      return receipt(orderId);
    case 'declined':
      return pageWithError(orderId, declineCode(result.payment));
    default:
      return pageWithError(orderId, result.kind);
  }
}

/** The order id of a post that failed validation, if it looks like one (it only goes back into our own URL). */
function postedOrderId(request: FastifyRequest): string | null {
  const body = request.body as { order_id?: unknown } | undefined;
  const id = body?.order_id;
  return typeof id === 'string' && /^ord_[A-Za-z0-9_-]{1,60}$/.test(id) ? id : null;
}

/**
 * The form-post integration's server side: a plain HTML form on this site posts the nonce the drop-in wrote into it,
 * and the shopper lands on the receipt, or back on the page with the error. A form cannot send an Idempotency-Key
 * header: the nonce keys the attempt instead (a nonce is single use, so it names one payment), and the same post
 * again (a double click, a reload of the POST) gets the same attempt's outcome from the payment use-case.
 */
export async function formPaymentsRoutes(app: ApiInstance, ctx: AppContext): Promise<void> {
  await app.register(async (plain) => {
    const scope = plain.withTypeProvider<ZodTypeProvider>();
    acceptFormBodies(scope);

    scope.post(
      '/api/form-payments',
      {
        config: {
          crossSite: 'same-origin-form',
          rateLimit: { max: ctx.config.rateLimits.paymentsPerMinute, timeWindow: '1 minute' },
        },
        schema: {
          summary:
            'Pay an order from an HTML form of this site (payment_method_nonce, device_data); answers 303 to the receipt or back to the page',
          tags: ['payments'],
          consumes: ['application/x-www-form-urlencoded'],
          body: formPaymentBody,
          response: {
            303: redirected,
            ...problemResponses('cross_site_request', 'unsupported_media_type'),
          },
        },
        errorHandler: (error, request, reply: FastifyReply) => {
          const problem = problemOf(error, request);
          if (REFUSED_AS_IS.has(problem.code)) return sendProblem(reply, problem);
          return reply.redirect(pageWithError(postedOrderId(request), problem.code), 303);
        },
      },
      async (request, reply) => {
        const { order_id: orderId, payment_method_nonce: nonce, device_data: deviceData, botcheck } = request.body;
        const visitor = request.kassaSession?.account_id ?? request.kassaSession?.id ?? 'none';
        const result = await takePayment(ctx, request, reply, {
          orderId,
          nonce,
          ...(deviceData ? { deviceData } : {}),
          botcheck,
          saveCard: false,
          idempotencyRef: `${visitor}:form:${createHash('sha256').update(nonce).digest('hex').slice(0, 32)}`,
        });
        return reply.redirect(locationOf(orderId, result), 303);
      },
    );
  });
}
