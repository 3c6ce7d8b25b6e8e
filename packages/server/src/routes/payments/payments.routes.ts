import type { FastifyReply, FastifyRequest } from 'fastify';
import { botcheckOf } from '../../botcheck/request-check.ts';
import type { AppContext } from '../../context.ts';
import type { PaymentRow } from '../../db/schema.ts';
import { GatewayUnavailableError } from '../../gateway/gateway.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { PROBLEM_CONTENT_TYPE, ProblemError, problemBody } from '../../http/problem.ts';
import { payOrder } from '../../payments/pay-order.ts';
import type { Finished, PayOrderResult } from '../../payments/pay-order.ts';
import type { KeyAnswer } from '../../payments/idempotency.repository.ts';
import { toDecline, toPaymentSummary } from '../../payments/payment.ts';
import { answerToSave, heldKeyRef, sendSaved } from '../../plugins/idempotency.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { ownerOf } from '../../plugins/sessions.ts';
import {
  cardSubjects,
  enforceCardLimits,
  enforceLimits,
  outcomeCounter,
  outcomeSubjects,
  paymentSubjects,
  recordCardUse,
  rulesBeforeCard,
} from '../../velocity/guard.ts';
import type { CardSubjects } from '../../velocity/guard.ts';
import { orderIdParams } from '../orders/orders.schemas.ts';
import { paidResponse, payBody, paymentDeclinedSchema } from './payments.schemas.ts';

/** The problem code of a decline: the merchant requires a liability shift above THREE_D_SECURE_REQUIRED_ABOVE and the card had none, or any other. */
export function declineCode(
  payment: Pick<PaymentRow, 'gateway_rejection_reason'>,
): 'three_d_secure_required' | 'payment_declined' {
  return payment.gateway_rejection_reason === 'three_d_secure' ? 'three_d_secure_required' : 'payment_declined';
}

/**
 * A use-case result -> the answer. Sent answers are final (the Idempotency-Key replays them); refusals that pass
 * (another attempt running, a failed bot-check) are thrown, so the key is released and a retry runs again.
 */
function answer(request: FastifyRequest, reply: FastifyReply, result: PayOrderResult): FastifyReply {
  switch (result.kind) {
    case 'succeeded':
    case 'declined': {
      if (result.saved !== undefined) return sendSaved(request, reply, result.saved);
      const { status, body } = finishedAnswer(result);
      return reply
        .status(status)
        .type(status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8')
        .send(body);
    }
    case 'order_not_found':
    case 'order_already_paid':
      return reply.status(problemBody(result.kind).status).type(PROBLEM_CONTENT_TYPE).send(problemBody(result.kind));
    case 'payment_in_progress':
    case 'botcheck_failed':
      throw new ProblemError(result.kind);
  }
}

/** A finished attempt's answer: the payment and its order (201), or the decline as a problem (402). */
function finishedAnswer(result: Finished): { status: number; body: object } {
  if (result.kind === 'succeeded')
    return { status: 201, body: { payment: toPaymentSummary(result.payment), order: result.order } };
  const body = problemBody(declineCode(result.payment), {
    extensions: { decline: toDecline(result.payment), payment: { id: result.payment.id, status: 'declined' } },
  });
  return { status: body.status, body };
}

export function paymentsRoutes(app: ApiInstance, ctx: AppContext): void {
  app.post(
    '/api/orders/:id/payments',
    {
      config: {
        rateLimit: { max: ctx.config.rateLimits.paymentsPerMinute, timeWindow: '1 minute' },
        // The bot-check token is a credential, not a parameter: a retry may carry a fresh one and get the saved answer.
        idempotency: { credentials: ['botcheck'], withoutVisitor: 'order_not_found' },
      },
      schema: {
        summary: 'Pay an order with a payment method nonce (charged once per Idempotency-Key)',
        tags: ['payments'],
        params: orderIdParams,
        body: payBody,
        response: {
          201: paidResponse,
          402: {
            description: '`payment_declined`, or `three_d_secure_required` (a decline for want of a 3-D Secure liability shift)',
            content: { 'application/problem+json': { schema: paymentDeclinedSchema } },
          },
          ...problemResponses(
            'validation_failed',
            'botcheck_failed',
            'order_not_found',
            'order_already_paid',
            'payment_in_progress',
            'rate_limited',
            'too_many_attempts',
            'gateway_unavailable',
            'gateway_not_configured',
          ),
        },
      },
    },
    async (request, reply) => {
      const { nonce, deviceData, botcheck, saveCard } = request.body;
      const result = await takePayment(ctx, request, reply, {
        orderId: request.params.id,
        nonce,
        ...(deviceData !== undefined ? { deviceData } : {}),
        botcheck,
        saveCard: saveCard === true,
        idempotencyRef: heldKeyRef(request),
        // Made before the outcome is written, saved with it: one commit.
        answerOf: (finished) => {
          const { status, body } = finishedAnswer(finished);
          return answerToSave(request, reply, status, body);
        },
      });
      return answer(request, reply, result);
    },
  );
}

/** What a payment request carries, whatever its form (the JSON API, a form post). */
export interface PaymentRequest {
  orderId: string;
  nonce: string;
  deviceData?: string;
  botcheck: string;
  saveCard: boolean;
  /** Ties the attempt to the request, so the same request again resumes or answers the same attempt. */
  idempotencyRef: string;
  /** The answer its Idempotency-Key saves, saved with the outcome (PayOrderDeps' answerOf). */
  answerOf?: (result: Finished) => KeyAnswer;
}

/**
 * The payment use-case behind both payment routes: the visitor's order, the velocity rules before a new attempt, the
 * outcome logged. An outcome the gateway left unknown is thrown as `gateway_unavailable` (a retry resumes it).
 */
export async function takePayment(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  input: PaymentRequest,
): Promise<PayOrderResult> {
  const gateway = ctx.gateway;
  if (gateway === null) throw new ProblemError('gateway_not_configured');
  const owner = ownerOf(request);
  if (owner === null) throw new ProblemError('order_not_found');
  const { orderId: id } = input;
  const subjects = paymentSubjects(request, owner, id);
  let card: CardSubjects | null = null;
  const limits = ctx.config.velocity.payments;
  const admitNewAttempt = async () => {
    await enforceLimits(ctx.velocity, request, reply, 'payment', subjects, rulesBeforeCard(limits));
  };
  // The card is known only from the gateway's description of the nonce: asked once the cheaper rules and the
  // bot-check passed (payOrder's order), so a request without a valid token makes no gateway call at all.
  const admitCard = async (): Promise<void> => {
    const described = ctx.cards === null ? null : await ctx.cards.describeNonce(input.nonce);
    if (described === null) return;
    const known = cardSubjects(ctx.config.sessionSecret, described);
    card = known;
    await recordCardUse(ctx.velocity, known, subjects);
    await enforceCardLimits(ctx.velocity, request, reply, known, subjects, limits, ctx.config.velocity.binTesting);
  };
  let result: PayOrderResult;
  try {
    result = await payOrder(
      {
        db: ctx.db,
        gateway,
        checkBotcheck: botcheckOf(ctx, request, 'payment'),
        merchantAccountId: ctx.config.gateway?.merchantAccountId ?? null,
        threeDSecureRequiredAbove: ctx.config.threeDSecureRequiredAbove,
        staleAttemptMs: ctx.config.staleAttemptMs,
        admitNewAttempt,
        admitCard,
        // The payer and the card, read once admitCard has described it.
        countedAs: () => outcomeSubjects(subjects, card),
        countOutcome: outcomeCounter(ctx.velocity),
        ...(input.answerOf !== undefined ? { answerOf: input.answerOf } : {}),
      },
      {
        orderId: id,
        owner,
        nonce: input.nonce,
        ...(input.deviceData !== undefined ? { deviceData: input.deviceData } : {}),
        botcheckToken: input.botcheck,
        saveCard: input.saveCard,
        idempotencyRef: input.idempotencyRef,
      },
    );
  } catch (error) {
    // Outcome unknown: thrown, so nothing is saved and a retry with the same key resumes the same attempt.
    if (error instanceof GatewayUnavailableError) {
      request.log.warn({ err: error, orderId: id }, 'gateway unavailable during sale');
      throw new ProblemError('gateway_unavailable');
    }
    throw error;
  }
  logOutcome(request.log, id, result);
  return result;
}

function logOutcome(log: FastifyReply['log'], orderId: string, result: PayOrderResult): void {
  if (result.kind === 'declined' && result.payment.decline_reason === 'currency_mismatch') {
    log.error(
      { orderId, paymentId: result.payment.id, detail: result.payment.processor_response_text },
      "the gateway charged another currency than the order's and the charge was voided: set GATEWAY_MERCHANT_ACCOUNT_ID to the merchant account in the catalogue's currency",
    );
  }
  if (result.kind === 'succeeded' || result.kind === 'declined') {
    log.info(
      {
        orderId,
        paymentId: result.payment.id,
        status: result.payment.status,
        declineReason: result.payment.decline_reason ?? undefined,
      },
      'payment attempt finished',
    );
  } else {
    log.info({ orderId, outcome: result.kind }, 'payment refused');
  }
}
