import type { FastifyInstance } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import type { NonceRecord } from '../core/nonces.ts';
import { NONCE_TYPE } from '../core/wallets.ts';
import { objectOrEmpty } from './authorize.ts';
import type { Authorize } from './authorize.ts';
import { fieldErrors } from './payloads.ts';

/** A wallet nonce as the provider's client hands it to the page: its type and the account's details. */
export function walletPaymentMethod(record: NonceRecord) {
  const { wallet, card } = record;
  if (wallet === undefined || wallet === null) throw new Error('not a wallet nonce');
  const base = { nonce: record.nonce, type: NONCE_TYPE[wallet.kind], consumed: record.consumed };
  switch (wallet.kind) {
    case 'paypal_account':
      return {
        ...base,
        description: wallet.payerEmail,
        details: {
          email: wallet.payerEmail,
          payerId: wallet.payerId,
          firstName: wallet.payerFirstName,
          lastName: wallet.payerLastName,
        },
      };
    case 'venmo_account':
      return {
        ...base,
        description: `Venmo Account: ${wallet.username}`,
        details: { username: wallet.username, venmoUserId: wallet.venmoUserId },
      };
    case 'apple_pay_card':
      return {
        ...base,
        description: wallet.paymentInstrumentName,
        details: {
          cardType: card.cardType,
          lastFour: card.last4,
          lastTwo: card.last4.slice(-2),
          paymentInstrumentName: wallet.paymentInstrumentName,
        },
        rawPaymentData: { paymentMethod: { network: card.cardType, displayName: wallet.paymentInstrumentName, type: 'credit' } },
      };
    case 'android_pay_card':
      return {
        ...base,
        description: wallet.sourceDescription,
        details: {
          cardType: wallet.sourceCardType,
          lastFour: wallet.sourceCardLast4,
          lastTwo: wallet.sourceCardLast4.slice(-2),
          isNetworkTokenized: wallet.isNetworkTokenized !== false,
        },
        rawPaymentData: {
          paymentMethodData: {
            type: 'CARD',
            description: wallet.sourceDescription,
            info: { cardNetwork: wallet.sourceCardType.toUpperCase(), cardDetails: wallet.sourceCardLast4 },
          },
        },
      };
  }
}

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
    const outcome = gateway.walletApprovals.start(authorization, wallet, body['amount']);
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
