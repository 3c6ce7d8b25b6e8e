import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { GatewayUnavailableError } from '../../gateway/gateway.ts';
import { parseInput } from '../../http/parse.ts';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from '../../http/problem.ts';
import { payOrder } from '../../payments/pay-order.ts';
import type { PayOrderResult } from '../../payments/pay-order.ts';
import { toDecline, toPaymentSummary } from '../../payments/payment.ts';
import { ownerOf } from '../../plugins/sessions.ts';
import { orderIdParams } from '../orders/orders.schemas.ts';
import { idempotencyKeySchema, payBody } from './payments.schemas.ts';

/** The answer a payment request gets, saved under its Idempotency-Key and replayed to retries. */
function toResponse(result: PayOrderResult): { status: number; body: unknown } {
  switch (result.kind) {
    case 'succeeded':
      return { status: 201, body: { payment: toPaymentSummary(result.payment), order: result.order } };
    case 'declined': {
      const body = problemBody('payment_declined', {
        extensions: { decline: toDecline(result.payment), payment: { id: result.payment.id, status: 'declined' } },
      });
      return { status: body.status, body };
    }
    case 'order_not_found':
    case 'order_already_paid':
    case 'payment_in_progress': {
      const body = problemBody(result.kind);
      return { status: body.status, body };
    }
    case 'botcheck_failed': {
      const body = problemBody('botcheck_failed');
      return { status: body.status, body };
    }
  }
}

/** Refusals that pass: another attempt is running, or the bot-check failed and can be run again. */
function isTransient(result: PayOrderResult): boolean {
  return result.kind === 'payment_in_progress' || result.kind === 'botcheck_failed';
}

export function paymentsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post(
    '/api/orders/:id/payments',
    { config: { rateLimit: { max: ctx.config.rateLimits.paymentsPerMinute, timeWindow: '1 minute' } } },
    async (request, reply) => {
      const { id } = parseInput(orderIdParams, request.params);
      const key = parseInput(idempotencyKeySchema, request.headers['idempotency-key'], 'Idempotency-Key');
      const body = parseInput(payBody, request.body ?? {});
      const gateway = ctx.gateway;
      if (gateway === null) throw new ProblemError('gateway_not_configured');
      const owner = ownerOf(request);
      if (owner === null) throw new ProblemError('order_not_found');

      // Keys are per visitor (Stripe scopes them per account); the hash pins the request they were used with. The
      // bot-check token is a credential, not a parameter: a retry may carry a fresh one and still get the saved answer.
      const scope = owner.accountId ?? owner.sessionId;
      const requestHash = createHash('sha256').update(JSON.stringify([id, body.nonce, body.deviceData ?? null])).digest('hex');
      const claim = await ctx.idempotency.claim(scope, key, requestHash);
      if (claim.kind === 'reused') throw new ProblemError('idempotency_key_reused');
      if (claim.kind === 'in_use') throw new ProblemError('idempotency_key_in_use');
      if (claim.kind === 'replay') {
        return reply
          .status(claim.status)
          .header('idempotent-replayed', 'true')
          .type(claim.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8')
          .send(claim.body);
      }

      let response: { status: number; body: unknown };
      let transient: boolean;
      try {
        const result = await payOrder(
          { db: ctx.db, gateway, botcheck: ctx.botcheck, replays: ctx.replays, merchantAccountId: ctx.config.gateway?.merchantAccountId ?? null },
          { orderId: id, owner, nonce: body.nonce, ...(body.deviceData !== undefined ? { deviceData: body.deviceData } : {}), botcheckToken: body.botcheck, idempotencyRef: `${scope}:${key}` },
        );
        response = toResponse(result);
        transient = isTransient(result);
        if (result.kind === 'declined' && result.payment.decline_reason === 'currency_mismatch') {
          request.log.error(
            { orderId: id, paymentId: result.payment.id, detail: result.payment.processor_response_text },
            'the gateway charged another currency than the order\'s and the charge was voided: set GATEWAY_MERCHANT_ACCOUNT_ID to the merchant account in the catalogue\'s currency',
          );
        }
        if (result.kind === 'succeeded' || result.kind === 'declined') {
          request.log.info({ orderId: id, paymentId: result.payment.id, status: result.payment.status, declineReason: result.payment.decline_reason ?? undefined }, 'payment attempt finished');
        } else {
          request.log.info({ orderId: id, outcome: result.kind }, 'payment refused');
        }
      } catch (error) {
        // Outcome unknown: nothing is saved, so a retry with the same key resumes the same attempt.
        await ctx.idempotency.unlock(scope, key);
        if (error instanceof GatewayUnavailableError) {
          request.log.warn({ err: error, orderId: id }, 'gateway unavailable during sale');
          throw new ProblemError('gateway_unavailable');
        }
        throw error;
      }
      // Final answers are saved for replay; passing ones (another attempt running, a failed bot-check) are not, so a
      // retry with the same key runs again (gateway.md: a 409 is safe to retry).
      if (transient) await ctx.idempotency.unlock(scope, key);
      else await ctx.idempotency.complete(scope, key, response.status, response.body);
      return reply
        .status(response.status)
        .type(response.status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8')
        .send(response.body);
    },
  );
}
