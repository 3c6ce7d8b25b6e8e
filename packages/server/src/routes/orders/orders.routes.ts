import { botcheckSettings, steppedUp } from '../../botcheck/settings.ts';
import type { AppContext } from '../../context.ts';
import { GatewayUnavailableError } from '../../gateway/gateway.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { validationFailed } from '../../http/parse.ts';
import { ProblemError } from '../../http/problem.ts';
import { createOrder } from '../../orders/create-order.ts';
import { ORDER_HISTORY_LIMIT, findOwnedOrder, findOwnedOrderRow, listAccountOrders } from '../../orders/orders.repository.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { ensureSession, ownerOf } from '../../plugins/sessions.ts';
import { enforceLimits } from '../../velocity/guard.ts';
import { signedInAccount } from '../payment-methods/vault-http.ts';
import { checkoutSessionSchema, createOrderBody, orderIdParams, orderResponse, ordersResponse } from './orders.schemas.ts';

export function ordersRoutes(app: ApiInstance, ctx: AppContext): void {
  app.post(
    '/api/orders',
    {
      schema: {
        summary: 'Create an order priced from the catalogue (the visitor gets a guest session if they have none)',
        tags: ['orders'],
        body: createOrderBody,
        response: { 201: orderResponse, ...problemResponses('validation_failed', 'too_many_attempts') },
      },
    },
    async (request, reply) => {
      const session = await ensureSession(ctx, request, reply);
      await enforceLimits(
        ctx.velocity,
        request,
        reply,
        'order',
        { session: session.id, ip: request.ip },
        ctx.config.velocity.orders,
      );
      const result = await createOrder(ctx.db, { accountId: session.account_id, sessionId: session.id }, request.body);
      if (result.kind === 'invalid') throw validationFailed(result.errors);
      return reply.status(201).send({ order: result.order });
    },
  );

  app.get(
    '/api/orders',
    {
      schema: {
        summary: `The signed-in shopper's orders, newest first (the latest ${ORDER_HISTORY_LIMIT})`,
        tags: ['orders'],
        response: { 200: ordersResponse, ...problemResponses('not_signed_in') },
      },
    },
    async (request) => ({ orders: await listAccountOrders(ctx.db, signedInAccount(request)) }),
  );

  app.get(
    '/api/orders/:id',
    {
      schema: {
        summary: "An order of the visitor's, with its payment attempts",
        tags: ['orders'],
        params: orderIdParams,
        response: { 200: orderResponse, ...problemResponses('validation_failed', 'order_not_found') },
      },
    },
    async (request) => {
      const owner = ownerOf(request);
      const order = owner === null ? undefined : await findOwnedOrder(ctx.db, request.params.id, owner);
      if (order === undefined) throw new ProblemError('order_not_found');
      return { order };
    },
  );

  app.post(
    '/api/orders/:id/checkout-session',
    {
      schema: {
        summary: 'What the checkout needs to pay an order: a client token, the amount, options, the bot-check settings',
        tags: ['orders'],
        params: orderIdParams,
        response: {
          200: checkoutSessionSchema,
          ...problemResponses(
            'validation_failed',
            'order_not_found',
            'order_already_paid',
            'gateway_unavailable',
            'gateway_not_configured',
            'too_many_attempts',
          ),
        },
      },
    },
    async (request, reply) => {
      const owner = ownerOf(request);
      const order = owner === null ? undefined : await findOwnedOrderRow(ctx.db, request.params.id, owner);
      if (order === undefined || owner === null) throw new ProblemError('order_not_found');
      if (order.status === 'paid') throw new ProblemError('order_already_paid');
      const gateway = ctx.gateway;
      if (gateway === null) throw new ProblemError('gateway_not_configured');
      // Each client token opens the gateway's tokenization to the browser: counted before one is asked for.
      await enforceLimits(
        ctx.velocity,
        request,
        reply,
        'checkout_session',
        { session: owner.sessionId, ip: request.ip },
        ctx.config.velocity.checkoutSessions,
      );
      try {
        // Never bound to the shopper's customer, signed in or not: the checkout lists and saves cards through our API.
        const clientToken = await gateway.generateClientToken();
        return {
          clientToken,
          amount: { amount: order.total_amount, currency: order.currency },
          checkout: {
            cardholderName: ctx.config.checkout.cardholderName,
            // Signed in: "Save card" is offered and saved cards can be managed (edited, deleted) in the checkout.
            vaultCard: owner.accountId !== null,
            vaultManager: owner.accountId !== null,
          },
          botcheck: botcheckSettings(
            ctx.config.botcheck,
            owner.sessionId,
            'payment',
            await steppedUp(ctx.config.botcheck, ctx.shopAlert, 'payment'),
          ),
        };
      } catch (error) {
        if (error instanceof GatewayUnavailableError) {
          request.log.warn({ err: error }, 'client token not generated');
          throw new ProblemError('gateway_unavailable', { detail: 'The payment gateway did not answer. Try again.' });
        }
        throw error;
      }
    },
  );
}
