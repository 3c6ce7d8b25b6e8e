import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import { heldKeyRef } from '../../plugins/idempotency.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { cancelSubscription, listSubscriptions, subscribe } from '../../subscriptions/subscriptions.ts';
import {
  admitCardSave,
  countRefusedCard,
  refusedCardProblem,
  sendFinal,
  signedInAccount,
  vaultDeps,
  withGateway,
} from '../payment-methods/vault-http.ts';
import { subscribeBody, subscriptionIdParams, subscriptionResponse, subscriptionsResponse } from './subscriptions.schemas.ts';

const GATEWAY_PROBLEMS = ['not_signed_in', 'gateway_unavailable', 'gateway_not_configured'] as const;

export function subscriptionsRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/subscriptions',
    {
      schema: {
        summary: "The signed-in shopper's subscriptions, newest first",
        tags: ['subscriptions'],
        response: { 200: subscriptionsResponse, ...problemResponses(...GATEWAY_PROBLEMS) },
      },
    },
    async (request) => {
      const accountId = signedInAccount(request);
      return { subscriptions: await withGateway(request, () => listSubscriptions(vaultDeps(ctx), accountId)) };
    },
  );

  app.post(
    '/api/subscriptions',
    {
      config: { idempotency: { credentials: ['botcheck'], withoutVisitor: 'not_signed_in' } },
      schema: {
        summary:
          'Subscribe to a plan with a saved card, or a new card saved on the way (first period charged at once; a new card needs a payment bot-check token)',
        tags: ['subscriptions'],
        body: subscribeBody,
        response: {
          201: subscriptionResponse,
          ...problemResponses(
            'validation_failed',
            'subscription_declined',
            'plan_not_found',
            'payment_method_not_found',
            'payment_method_duplicate',
            'card_verification_failed',
            'payment_method_invalid',
            'botcheck_failed',
            'too_many_attempts',
            ...GATEWAY_PROBLEMS,
          ),
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const { planId, paymentMethodId, nonce } = request.body;
      // A new card is charged at once: a card tester's way in like any payment, so it needs a payment's bot-check
      // (always on). A saved card passed one when it was saved.
      const botcheck = { action: 'payment' as const, token: request.body.botcheck };
      const card = nonce === undefined ? null : await admitCardSave(ctx, request, reply, accountId, nonce, botcheck);
      const input = { planId, paymentMethodId, nonce, idempotencyRef: heldKeyRef(request) };
      const result = await withGateway(request, () => subscribe(vaultDeps(ctx), accountId, input));
      await countRefusedCard(ctx, request, accountId, result.kind, card);
      switch (result.kind) {
        case 'created':
          return reply.status(201).send({ subscription: result.subscription });
        case 'plan_not_found':
        case 'payment_method_not_found':
          return sendFinal(reply, new ProblemError(result.kind));
        case 'declined':
          return sendFinal(reply, new ProblemError('subscription_declined', { extensions: { decline: result } }));
        default:
          return sendFinal(reply, refusedCardProblem(result));
      }
    },
  );

  app.post(
    '/api/subscriptions/:id/cancel',
    {
      config: { idempotency: { withoutVisitor: 'not_signed_in' } },
      schema: {
        summary: "Cancel one of the shopper's subscriptions (cancelling a canceled one answers it unchanged)",
        tags: ['subscriptions'],
        params: subscriptionIdParams,
        response: {
          200: subscriptionResponse,
          ...problemResponses('validation_failed', 'subscription_not_found', ...GATEWAY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const canceled = await withGateway(request, () => cancelSubscription(vaultDeps(ctx), accountId, request.params.id));
      if (canceled === null) return sendFinal(reply, new ProblemError('subscription_not_found'));
      return reply.send({ subscription: canceled });
    },
  );
}
