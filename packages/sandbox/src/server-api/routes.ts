import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxGateway, SaleParams } from '../core/gateway.ts';
import { validationError } from '../core/errors.ts';
import { PATH_ID } from '../core/ids.ts';
import { requireMerchantKeys } from './auth.ts';
import { disputeRoutes } from './dispute-routes.ts';
import { searchRoutes } from './search-routes.ts';
import { settlementRoutes } from './settlement-routes.ts';
import { errorResponseXml, transactionXml } from './serialize.ts';
import { vaultRoutes } from './vault-routes.ts';
import { camelizeKeys, section, sendStatus, sendTransactionResult, sendXml, stringOrNull } from './wire.ts';

const TYPE_INVALID = validationError(['transaction'], 'type', '91523', 'Transaction type is invalid.');

type IdRequest = FastifyRequest<{ Params: { merchantId: string; id: string } }>;

/**
 * The provider's server API as the official Node SDK calls it: `/merchants/{merchantId}/...`, Basic auth, JSON with
 * snake_case keys in, dasherized XML out; 201/200 success, 422 `<api-error-response>`, bare 401/403/404 otherwise.
 */
export async function serverApiRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;
  app.addHook('onRequest', requireMerchantKeys(gateway));
  // Each capability in its own module; registered here so that they sit behind the same key check.
  await app.register(settlementRoutes, { gateway });
  await app.register(searchRoutes, { gateway });
  await app.register(disputeRoutes, { gateway });

  app.post('/client_token', async (request, reply) => {
    const params = camelizeKeys(section(request.body, 'client_token')) as { customerId?: unknown };
    const outcome = gateway.generateClientToken(params);
    if (!outcome.ok) return sendXml(request, reply, 422, errorResponseXml(outcome.errors, outcome.message, request.body));
    return sendXml(request, reply, 201, ['client-token', { value: outcome.value }]);
  });

  vaultRoutes(app, gateway);

  app.post('/transactions', async (request, reply) => {
    const params = section(request.body, 'transaction');
    const { apiRequestKey, type, ...sale } = camelizeKeys(params) as SaleParams & { apiRequestKey?: unknown; type?: unknown };
    if (type !== 'sale') {
      // Credits (and the other types) are not emulated: answer as a validation error rather than pretend.
      return sendXml(request, reply, 422, errorResponseXml([TYPE_INVALID], TYPE_INVALID.message, request.body));
    }
    return sendTransactionResult(request, reply, gateway.sale(sale, stringOrNull(apiRequestKey)), 201);
  });

  app.get('/transactions/:id', async (request: IdRequest, reply) => {
    const transaction = PATH_ID.test(request.params.id) ? gateway.findTransaction(request.params.id) : undefined;
    if (transaction === undefined) return sendStatus(reply, 404);
    return sendXml(request, reply, 200, ['transaction', transactionXml(transaction)]);
  });

  app.put('/transactions/:id/submit_for_settlement', async (request: IdRequest, reply) => {
    const params = camelizeKeys(section(request.body, 'transaction')) as { amount?: unknown; apiRequestKey?: unknown };
    const result = gateway.submitForSettlement(request.params.id, params.amount, stringOrNull(params.apiRequestKey));
    return sendTransactionResult(request, reply, result, 200);
  });

  app.put('/transactions/:id/void', async (request: IdRequest, reply) => {
    const params = camelizeKeys(section(request.body, 'transaction')) as { apiRequestKey?: unknown };
    return sendTransactionResult(request, reply, gateway.void(request.params.id, stringOrNull(params.apiRequestKey)), 200);
  });
}
