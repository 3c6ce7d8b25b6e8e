import type { FastifyInstance } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import type { NonceRecord } from '../core/nonces.ts';
import { isVerificationFailure } from '../core/vault-operations.ts';
import type { VaultOutcome } from '../core/vault-operations.ts';
import { fingerprintAuthorizer, objectOrEmpty } from './authorize.ts';
import { fieldErrors, savedPaymentMethod, tokenizedCreditCard, verificationFailure } from './payloads.ts';
import type { ClientApiError } from './payloads.ts';
import { threeDSecureRoutes } from './three-d-secure-routes.ts';
import { walletRoutes } from './wallet-routes.ts';

const CUSTOMER_REQUIRED: ClientApiError = {
  error: { message: 'Saved payment methods need a client token generated for a customer.', code: 'customer_required' },
};
const NOT_FOUND: ClientApiError = { error: { message: 'Payment method not found.', code: 'not_found' } };
const HAS_SUBSCRIPTION: ClientApiError = {
  error: { message: 'Payment method has an active subscription; cancel it first.', code: 'payment_method_has_subscription' },
};

/**
 * The browser's API (`/merchants/{merchantId}/client_api/v1/...`): authorized by the client token's fingerprint,
 * CORS open to any origin without cookies, JSON both ways. Card data only ever arrives here from the sandbox's own
 * hosted field frames.
 */
export async function clientApiRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;

  app.addHook('onRequest', async (_request, reply) => {
    reply.header('access-control-allow-origin', '*');
    reply.header('vary', 'Origin');
  });

  app.options('/*', async (_request, reply) =>
    reply
      .code(204)
      .header('access-control-allow-methods', 'GET, POST, DELETE, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '600')
      .send(),
  );

  const authorize = fingerprintAuthorizer(gateway);
  await app.register(threeDSecureRoutes, { gateway, authorize });
  await app.register(walletRoutes, { gateway, authorize });

  app.get('/v1/configuration', async (request, reply) => {
    const query = objectOrEmpty(request.query);
    if (authorize(request, reply, query['authorizationFingerprint']) === null) return reply;
    return reply.send(gateway.configuration());
  });

  app.get('/v1/payment_methods', async (request, reply) => {
    const query = objectOrEmpty(request.query);
    const authorization = authorize(request, reply, query['authorizationFingerprint']);
    if (authorization === null) return reply;
    // Guests have no saved methods; a customer's come default first, each with a fresh single-use nonce.
    const methods = authorization.customerId === null ? [] : gateway.vault.savedMethods(authorization.customerId);
    return reply.send({ paymentMethods: methods.map(savedPaymentMethod) });
  });

  /** Deletes the saved method the nonce (from the list above) stands for: the token's own customer's only. */
  app.delete('/v1/payment_methods/:nonce', async (request, reply) => {
    const query = objectOrEmpty(request.query);
    const authorization = authorize(request, reply, query['authorizationFingerprint']);
    if (authorization === null) return reply;
    if (authorization.customerId === null) return reply.code(403).send(CUSTOMER_REQUIRED);
    const { nonce } = request.params as { nonce: string };
    switch (gateway.vault.deleteSavedMethod(authorization.customerId, nonce)) {
      case 'deleted':
        return reply.code(204).send();
      case 'not_found':
        return reply.code(404).send(NOT_FOUND);
      case 'has_subscription':
        return reply.code(422).send(HAS_SUBSCRIPTION);
    }
  });

  app.post('/v1/payment_methods/credit_cards', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const card = objectOrEmpty(body['creditCard']);
    const billing = objectOrEmpty(card['billingAddress']);
    const input = {
      number: card['number'],
      expirationDate: card['expirationDate'],
      cvv: card['cvv'],
      cardholderName: card['cardholderName'],
      postalCode: billing['postalCode'],
    };
    // `validate` (braintree-web's `vault: true`, the checkout's "Save card"): save the card for the token's customer.
    const save = objectOrEmpty(card['options'])['validate'] === true;
    const { customerId } = authorization;
    if (save && customerId === null) return reply.code(403).send(CUSTOMER_REQUIRED);
    const outcome: VaultOutcome<NonceRecord> =
      save && customerId !== null
        ? gateway.tokenizeAndSaveCard({ ...authorization, customerId }, input)
        : gateway.tokenizeCard(authorization, input);
    if (!outcome.ok) {
      if (isVerificationFailure(outcome)) return reply.code(422).send(verificationFailure(outcome));
      const error: ClientApiError = { error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) };
      return reply.code(422).send(error);
    }
    return reply.code(201).send({ creditCards: [tokenizedCreditCard(outcome.value)] });
  });
}
