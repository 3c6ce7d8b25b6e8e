import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import { sendStatus } from './wire.ts';

/** `Authorization: Basic base64(publicKey:privateKey)` -> the two keys, or null. */
export function parseBasicAuth(header: string | undefined): { publicKey: string; privateKey: string } | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header ?? '');
  if (!match || match[1] === undefined) return null;
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  return { publicKey: decoded.slice(0, colon), privateKey: decoded.slice(colon + 1) };
}

/**
 * Bad or missing keys: 401 (the SDK throws authenticationError). Good keys for another merchant id: 403 (the SDK
 * throws authorizationError), as the real gateway does.
 */
export function requireMerchantKeys(gateway: SandboxGateway) {
  // Returning the reply tells Fastify the hook answered and the route must not run.
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> => {
    const keys = parseBasicAuth(request.headers.authorization);
    if (keys === null || !gateway.authenticate(keys.publicKey, keys.privateKey)) return sendStatus(reply, 401);
    const { merchantId } = request.params as { merchantId?: string };
    if (merchantId !== gateway.credentials.merchantId) return sendStatus(reply, 403);
    return undefined;
  };
}
