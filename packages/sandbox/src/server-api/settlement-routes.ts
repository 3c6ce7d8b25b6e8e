import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import type { RefundParams } from '../core/refunds.ts';
import type { SettlementSimulation } from '../core/settlement.ts';
import { camelizeKeys, section, sendTransactionResult, stringOrNull } from './wire.ts';

// After the sale: refunds, and the provider's testing calls that settle a transaction on demand (the SDK's
// `testing.*`, which it refuses to send to a production environment). Registered inside serverApiRoutes, so the
// merchant's keys are checked first.

type IdRequest = FastifyRequest<{ Params: { merchantId: string; id: string } }>;

const SIMULATIONS: readonly SettlementSimulation[] = ['settle', 'settlement_decline', 'settlement_pending', 'settlement_confirm'];

export async function settlementRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;

  app.post('/transactions/:id/refund', async (request: IdRequest, reply) => {
    const { apiRequestKey, amount, orderId } = camelizeKeys(section(request.body, 'transaction')) as RefundParams & {
      apiRequestKey?: unknown;
    };
    const result = gateway.refund(request.params.id, { amount, orderId }, stringOrNull(apiRequestKey));
    return sendTransactionResult(request, reply, result, 201);
  });

  for (const simulation of SIMULATIONS) {
    app.put(`/transactions/:id/${simulation}`, async (request: IdRequest, reply) =>
      sendTransactionResult(request, reply, gateway.simulateSettlement(request.params.id, simulation), 200),
    );
  }
}
