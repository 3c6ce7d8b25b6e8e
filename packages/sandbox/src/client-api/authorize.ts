import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import type { Authorization } from '../core/fingerprint.ts';
import type { ClientApiError } from './payloads.ts';

const INVALID_FINGERPRINT: ClientApiError = { error: { message: 'Authorization fingerprint is invalid' } };

export function objectOrEmpty(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Checks a request's fingerprint: its authorization for this merchant, or null with a 401 already sent. */
export type Authorize = (request: FastifyRequest, reply: FastifyReply, fingerprint: unknown) => Authorization | null;

export function fingerprintAuthorizer(gateway: SandboxGateway): Authorize {
  return (request, reply, fingerprint) => {
    const { merchantId } = request.params as { merchantId?: string };
    const authorization = gateway.authorize(fingerprint);
    if (authorization === null || authorization.merchantId !== merchantId) {
      void reply.code(401).send(INVALID_FINGERPRINT);
      return null;
    }
    return authorization;
  };
}
