import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import {
  addSavedMethod,
  deleteSavedMethod,
  listSavedMethods,
  makeDefaultMethod,
  savedMethodNonce,
} from '../../vault/saved-methods.ts';
import { enforceLimits } from '../../velocity/guard.ts';
import {
  admitCardSave,
  countRefusedCard,
  refusedCardProblem,
  sendFinal,
  signedInAccount,
  vaultDeps,
  withGateway,
} from './vault-http.ts';
import {
  addPaymentMethodBody,
  alreadySavedResponse,
  paymentMethodDeleted,
  paymentMethodIdParams,
  paymentMethodResponse,
  paymentMethodsResponse,
  savedMethodNonceResponse,
  vaultSessionSchema,
  verificationFailedSchema,
} from './payment-methods.schemas.ts';

const IDEMPOTENT = { idempotency: { withoutVisitor: 'not_signed_in' } } as const;
const GATEWAY_PROBLEMS = ['not_signed_in', 'gateway_unavailable', 'gateway_not_configured'] as const;

export function paymentMethodsRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/payment-methods',
    {
      schema: {
        summary: "The signed-in shopper's saved cards, the default first",
        tags: ['payment methods'],
        response: { 200: paymentMethodsResponse, ...problemResponses(...GATEWAY_PROBLEMS) },
      },
    },
    async (request) => {
      const accountId = signedInAccount(request);
      return { paymentMethods: await withGateway(request, () => listSavedMethods(vaultDeps(ctx), accountId)) };
    },
  );

  app.post(
    '/api/payment-methods/client-token',
    {
      schema: {
        summary: "A client token for the checkout's card form, to add a card outside an order (then `POST /api/payment-methods`)",
        tags: ['payment methods'],
        response: { 200: vaultSessionSchema, ...problemResponses('too_many_attempts', ...GATEWAY_PROBLEMS) },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const { gateway } = vaultDeps(ctx);
      // A client token opens the gateway's tokenization to the browser: counted like the checkout's.
      const subjects = { account: accountId, session: request.kassaSession?.id ?? accountId, ip: request.ip };
      await enforceLimits(ctx.velocity, request, reply, 'checkout_session', subjects, ctx.config.velocity.checkoutSessions);
      const clientToken = await withGateway(request, () => gateway.generateClientToken());
      return { clientToken, checkout: { cardholderName: ctx.config.checkout.cardholderName } };
    },
  );

  app.post(
    '/api/payment-methods',
    {
      // The bot-check token is a credential: a retry may carry a fresh one and get the saved answer.
      config: { idempotency: { ...IDEMPOTENT.idempotency, credentials: ['botcheck'] } },
      schema: {
        summary:
          'Save a tokenized card or an approved wallet for the signed-in shopper (a card verified by the gateway; a card or wallet already saved is refused)',
        tags: ['payment methods'],
        body: addPaymentMethodBody,
        response: {
          201: paymentMethodResponse,
          422: {
            description:
              '`card_verification_failed`: Credit card verification failed.\n`payment_method_invalid`: the nonce was refused',
            content: { 'application/problem+json': { schema: verificationFailedSchema } },
          },
          ...problemResponses('validation_failed', 'botcheck_failed', 'too_many_attempts', ...GATEWAY_PROBLEMS),
          409: alreadySavedResponse,
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const botcheck = { action: 'save_card' as const, token: request.body.botcheck };
      const card = await admitCardSave(ctx, request, reply, accountId, request.body.nonce, botcheck);
      const input = { nonce: request.body.nonce, makeDefault: request.body.makeDefault ?? false };
      const result = await withGateway(request, () => addSavedMethod(vaultDeps(ctx), accountId, input));
      await countRefusedCard(ctx, request, accountId, result.kind, card);
      if (result.kind !== 'saved') return sendFinal(reply, refusedCardProblem(result));
      return reply.status(201).send({ paymentMethod: result.method });
    },
  );

  app.post(
    '/api/payment-methods/:id/default',
    {
      config: IDEMPOTENT,
      schema: {
        summary: "Make a saved card the shopper's default",
        tags: ['payment methods'],
        params: paymentMethodIdParams,
        response: {
          200: paymentMethodResponse,
          ...problemResponses('validation_failed', 'payment_method_not_found', ...GATEWAY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const method = await withGateway(request, () => makeDefaultMethod(vaultDeps(ctx), accountId, request.params.id));
      if (method === null) return sendFinal(reply, new ProblemError('payment_method_not_found'));
      return reply.send({ paymentMethod: method });
    },
  );

  app.delete(
    '/api/payment-methods/:id',
    {
      config: IDEMPOTENT,
      schema: {
        summary: 'Delete a saved card; refused while a subscription still charges it',
        tags: ['payment methods'],
        params: paymentMethodIdParams,
        response: {
          204: paymentMethodDeleted,
          ...problemResponses(
            'validation_failed',
            'payment_method_not_found',
            'payment_method_has_subscription',
            ...GATEWAY_PROBLEMS,
          ),
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const result = await withGateway(request, () => deleteSavedMethod(vaultDeps(ctx), accountId, request.params.id));
      if (result === 'not_found') return sendFinal(reply, new ProblemError('payment_method_not_found'));
      if (result === 'has_subscription') return sendFinal(reply, new ProblemError('payment_method_has_subscription'));
      return reply.status(204).send();
    },
  );

  app.post(
    '/api/payment-methods/:id/nonces',
    {
      config: IDEMPOTENT,
      schema: {
        summary: 'A single-use nonce that pays with a saved card (no card typed)',
        tags: ['payment methods'],
        params: paymentMethodIdParams,
        response: {
          201: savedMethodNonceResponse,
          ...problemResponses('validation_failed', 'payment_method_not_found', ...GATEWAY_PROBLEMS),
        },
      },
    },
    async (request, reply) => {
      const accountId = signedInAccount(request);
      const nonce = await withGateway(request, () =>
        savedMethodNonce({ ...vaultDeps(ctx), cards: ctx.cards }, accountId, request.params.id),
      );
      if (nonce === null) return sendFinal(reply, new ProblemError('payment_method_not_found'));
      return reply.status(201).send({ nonce });
    },
  );
}
