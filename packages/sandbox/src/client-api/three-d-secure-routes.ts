import type { FastifyInstance } from 'fastify';
import { parseThreeDSecureBrowser } from '../core/device-data.ts';
import type { SandboxGateway } from '../core/gateway.ts';
import type { ThreeDSecureInfo } from '../core/three-d-secure.ts';
import { objectOrEmpty } from './authorize.ts';
import type { Authorize } from './authorize.ts';
import { fieldErrors, tokenizedCreditCard } from './payloads.ts';
import { challengePageUrl } from '../pages/three-d-secure/routes.ts';

/** The short form the provider's client answers beside the nonce. */
function summary(info: ThreeDSecureInfo) {
  return { liabilityShifted: info.liabilityShifted, liabilityShiftPossible: info.liabilityShiftPossible, status: info.status };
}

/**
 * 3-D Secure 2 for the browser (docs/contracts.md section 1): the lookup for a card nonce and an amount (and the
 * shopper's browser, when the checkout describes it), and the result of a challenge the shopper answered on the
 * sandbox's challenge page.
 */
export async function threeDSecureRoutes(
  app: FastifyInstance,
  options: { gateway: SandboxGateway; authorize: Authorize },
): Promise<void> {
  const { gateway, authorize } = options;

  app.post('/v1/payment_methods/:nonce/three_d_secure/lookup', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const { nonce } = request.params as { nonce: string };
    const outcome = gateway.threeDSecure.lookup(authorization, nonce, body['amount'], parseThreeDSecureBrowser(body));
    if (!outcome.ok)
      return reply.code(422).send({ error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) });
    const result = outcome.value;
    const { info } = result;
    return reply.code(201).send({
      paymentMethod: result.kind === 'complete' ? tokenizedCreditCard(result.nonce) : null,
      lookup: {
        challengeId: result.kind === 'challenge' ? result.challenge.id : null,
        acsUrl: result.kind === 'challenge' ? challengePageUrl(gateway.origin) : null,
        threeDSecureVersion: info.threeDSecureVersion,
        transStatus: info.lookup.transStatus,
        transStatusReason: info.lookup.transStatusReason,
      },
      threeDSecureInfo: summary(info),
    });
  });

  app.post('/v1/three_d_secure/challenges/:challengeId/result', async (request, reply) => {
    const body = objectOrEmpty(request.body);
    const authorization = authorize(request, reply, body['authorizationFingerprint']);
    if (authorization === null) return reply;
    const { challengeId } = request.params as { challengeId: string };
    const outcome = gateway.threeDSecure.result(authorization, challengeId);
    if (outcome === null) return reply.code(404).send({ error: { message: 'Unknown or expired 3D Secure challenge' } });
    if (!outcome.ok)
      return reply.code(422).send({ error: { message: outcome.message }, fieldErrors: fieldErrors(outcome.errors) });
    const info = outcome.value.threeDSecureInfo;
    return reply.code(201).send({
      paymentMethod: tokenizedCreditCard(outcome.value),
      threeDSecureInfo: info === undefined || info === null ? null : summary(info),
    });
  });
}
