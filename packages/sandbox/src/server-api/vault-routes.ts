import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { CustomerInput } from '../core/customers.ts';
import type { SandboxGateway } from '../core/gateway.ts';
import { PATH_ID } from '../core/ids.ts';
import type { SubscriptionParams } from '../core/subscription-operations.ts';
import { isVerificationFailure } from '../core/vault-operations.ts';
import type { CustomerParams, PaymentMethodParams, PaymentMethodUpdateParams, VaultOutcome } from '../core/vault-operations.ts';
import { errorResponseXml } from './serialize.ts';
import type { XmlReply } from './serialize.ts';
import {
  customerViewXml,
  paymentMethodNonceXml,
  planXml,
  subscriptionXml,
  vaultedMethodXml,
  verificationFailedXml,
} from './serialize-vault.ts';
import { XmlList } from './xml.ts';
import { camelizeKeys, section, sendStatus, sendXml } from './wire.ts';

type IdRequest = FastifyRequest<{ Params: { merchantId: string; id: string } }>;

/** The id in the path, or null when it cannot be one (the SDK refuses such ids itself; answered as not found). */
function pathId(request: IdRequest): string | null {
  return PATH_ID.test(request.params.id) ? request.params.id : null;
}

/** Success -> `status` with the record; a failed verification or validation errors -> 422 `<api-error-response>`. */
function sendOutcome<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  outcome: VaultOutcome<T> | null,
  status: number,
  toXml: (value: T) => XmlReply,
): FastifyReply {
  if (outcome === null) return sendStatus(reply, 404);
  if (outcome.ok) return sendXml(request, reply, status, toXml(outcome.value));
  if (isVerificationFailure(outcome)) return sendXml(request, reply, 422, verificationFailedXml(outcome, request.body));
  return sendXml(request, reply, 422, errorResponseXml(outcome.errors, outcome.message, request.body));
}

/** customer.*, paymentMethod.*, paymentMethodNonce.create and find, plan.all and subscription.* (inside serverApiRoutes). */
export function vaultRoutes(app: FastifyInstance, gateway: SandboxGateway): void {
  const { vault, subscriptions } = gateway;

  // --- customers ---

  app.post('/customers', async (request, reply) => {
    const params = camelizeKeys(section(request.body, 'customer')) as CustomerParams;
    return sendOutcome(request, reply, vault.createCustomer(params), 201, (view) => ['customer', customerViewXml(view)]);
  });

  app.get('/customers/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const view = id === null ? undefined : vault.findCustomer(id);
    if (view === undefined) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, ['customer', customerViewXml(view)]);
  });

  app.put('/customers/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const params = camelizeKeys(section(request.body, 'customer')) as CustomerInput;
    const outcome = id === null ? null : vault.updateCustomer(id, params);
    return sendOutcome(request, reply, outcome, 200, (view) => ['customer', customerViewXml(view)]);
  });

  app.delete('/customers/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    if (id === null || !vault.deleteCustomer(id)) return sendStatus(reply, 404);
    return reply.code(200).send('');
  });

  // --- payment methods ---

  app.post('/payment_methods', async (request, reply) => {
    const params = camelizeKeys(section(request.body, 'payment_method')) as PaymentMethodParams;
    return sendOutcome(request, reply, vault.createPaymentMethod(params), 201, vaultedMethodXml);
  });

  app.get('/payment_methods/any/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const view = id === null ? undefined : vault.findPaymentMethod(id);
    if (view === undefined) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, vaultedMethodXml(view));
  });

  app.put('/payment_methods/any/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const params = camelizeKeys(section(request.body, 'payment_method')) as PaymentMethodUpdateParams;
    const outcome = id === null ? null : vault.updatePaymentMethod(id, params);
    return sendOutcome(request, reply, outcome, 200, vaultedMethodXml);
  });

  app.delete('/payment_methods/any/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    if (id === null || !vault.deletePaymentMethod(id)) return sendStatus(reply, 404);
    return reply.code(200).send('');
  });

  app.post('/payment_methods/:id/nonces', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const record = id === null ? null : vault.createNonce(id);
    if (record === null) return sendStatus(reply, 404);
    return sendXml(request, reply, 201, ['payment-method-nonce', paymentMethodNonceXml(record)]);
  });

  app.get('/payment_method_nonces/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const record = id === null ? null : vault.findNonce(id);
    if (record === null) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, ['payment-method-nonce', paymentMethodNonceXml(record)]);
  });

  // --- plans and subscriptions ---

  app.get('/plans', async (request, reply) =>
    sendXml(request, reply, 200, ['plans', new XmlList('plan', subscriptions.allPlans().map(planXml))]),
  );

  app.post('/subscriptions', async (request, reply) => {
    const result = subscriptions.create(camelizeKeys(section(request.body, 'subscription')) as SubscriptionParams);
    switch (result.kind) {
      case 'success':
        return sendXml(request, reply, 201, ['subscription', subscriptionXml(result.view)]);
      case 'unsuccessful':
        return sendXml(request, reply, 422, errorResponseXml([], result.message, request.body, result.transaction));
      case 'invalid':
        return sendXml(request, reply, 422, errorResponseXml(result.errors, result.message, request.body));
    }
  });

  app.get('/subscriptions/:id', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const view = id === null ? undefined : subscriptions.find(id);
    if (view === undefined) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, ['subscription', subscriptionXml(view)]);
  });

  app.put('/subscriptions/:id/cancel', async (request: IdRequest, reply) => {
    const id = pathId(request);
    const outcome = id === null ? null : subscriptions.cancel(id);
    return sendOutcome(request, reply, outcome, 200, (view) => ['subscription', subscriptionXml(view)]);
  });
}
