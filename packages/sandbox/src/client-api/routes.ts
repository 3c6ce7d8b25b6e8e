import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import type { Authorization } from '../core/fingerprint.ts';
import { fieldErrors, tokenizedCreditCard } from './payloads.ts';
import type { ClientApiError } from './payloads.ts';

const INVALID_FINGERPRINT: ClientApiError = { error: { message: 'Authorization fingerprint is invalid' } };

function objectOrEmpty(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

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
      .header('access-control-allow-methods', 'GET, POST, OPTIONS')
      .header('access-control-allow-headers', 'Content-Type')
      .header('access-control-max-age', '600')
      .send(),
  );

  /** The fingerprint's authorization for this merchant, or a 401 already sent. */
  const authorize = (request: FastifyRequest, reply: FastifyReply, fingerprint: unknown): Authorization | null => {
    const { merchantId } = request.params as { merchantId?: string };
    const authorization = gateway.authorize(fingerprint);
    if (authorization === null || authorization.merchantId !== merchantId) {
      void reply.code(401).send(INVALID_FINGERPRINT);
      return null;
    }
    return authorization;
  };

  app.get('/v1/configuration', async (request, reply) => {
    const query = objectOrEmpty(request.query);
    if (authorize(request, reply, query['authorizationFingerprint']) === null) return reply;
    return reply.send(gateway.configuration());
  });

  app.get('/v1/payment_methods', async (request, reply) => {
    const query = objectOrEmpty(request.query);
    if (authorize(request, reply, query['authorizationFingerprint']) === null) return reply;
    // Saved methods are not emulated yet: customers, like guests, have none.
    return reply.send({ paymentMethods: [] });
  });

  app.post('/v1/payment_methods/credit_cards', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const card = objectOrEmpty(body['creditCard']);
    const billing = objectOrEmpty(card['billingAddress']);
    const outcome = gateway.tokenizeCard(authorization, {
      number: card['number'],
      expirationDate: card['expirationDate'],
      cvv: card['cvv'],
      cardholderName: card['cardholderName'],
      postalCode: billing['postalCode'],
    });
    if (!outcome.ok) {
      const error: ClientApiError = { error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) };
      return reply.code(422).send(error);
    }
    return reply.code(201).send({ creditCards: [tokenizedCreditCard(outcome.value)] });
  });
}
