import type { FastifyInstance } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import { objectOrEmpty } from './authorize.ts';
import type { Authorize } from './authorize.ts';
import { fieldErrors, walletPaymentMethod } from './payloads.ts';

/** The wallets' approvals for the browser (docs/contracts.md section 1, "Wallets"). */
export async function walletRoutes(
  app: FastifyInstance,
  options: { gateway: SandboxGateway; authorize: Authorize },
): Promise<void> {
  const { gateway, authorize } = options;

  app.post('/v1/wallets/:wallet/approvals', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const { wallet } = request.params as { wallet: string };
    // `vault`: PayPal's vault flow (a billing agreement the shop may charge again, no amount needed).
    const outcome = gateway.walletApprovals.start(authorization, wallet, body['amount'], body['vault'] === true);
    if (!outcome.ok)
      return reply.code(422).send({ error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) });
    return reply.code(201).send({ approvalId: outcome.value.id, approvalUrl: `${gateway.origin}/wallets/approve.html` });
  });

  app.post('/v1/wallets/approvals/:approvalId/result', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const { approvalId } = request.params as { approvalId: string };
    const outcome = gateway.walletApprovals.result(authorization, approvalId);
    if (outcome === null) return reply.code(404).send({ error: { message: 'Unknown or expired wallet approval' } });
    if (!outcome.ok)
      return reply.code(422).send({ error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) });
    return reply.code(201).send({ paymentMethod: walletPaymentMethod(outcome.value) });
  });
}
