import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Fault, FaultStatus, FaultTarget, Faults } from '../core/faults.ts';
import { sendStatus } from '../server-api/wire.ts';

/** The test-only control endpoints live here; they are never faulted themselves. */
export const TEST_CONTROL_PREFIX = '/__sandbox';

const CLIENT_API = /^\/merchants\/[^/]+\/client_api(?=\/|$)/;
const SERVER_API = /^\/merchants\/[^/]+\//;

/** The kinds a request belongs to, narrowest first; every request is `any`. */
export function faultTargets(method: string, path: string): FaultTarget[] {
  const clientApi = CLIENT_API.exec(path);
  if (clientApi !== null) {
    const rest = path.slice(clientApi[0].length);
    const targets: FaultTarget[] = [];
    if (rest === '/v1/configuration') targets.push('configuration');
    else if (method === 'GET' && rest === '/v1/payment_methods') targets.push('payment_methods');
    else if (rest.includes('/three_d_secure')) targets.push('three_d_secure');
    else if (method === 'POST' && rest.startsWith('/v1/payment_methods/')) targets.push('tokenization');
    return [...targets, 'client_api', 'any'];
  }
  if (SERVER_API.test(path)) return ['server_api', 'any'];
  return ['pages', 'any'];
}

/** What the browser's client gets from a failing client API (JSON, and CORS so the page can read the status). */
const CLIENT_API_MESSAGES: Readonly<Record<FaultStatus, string>> = {
  401: 'Authorization fingerprint is invalid',
  403: 'Authorization has insufficient privileges',
  429: 'Too many requests',
  500: 'Internal server error',
  503: 'Service unavailable',
};

function answerStatus(
  reply: FastifyReply,
  fault: Extract<Fault, { type: 'status' }>,
  targets: readonly FaultTarget[],
): FastifyReply {
  const retryAfter = fault.retryAfter ?? (fault.status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) reply.header('retry-after', String(retryAfter));
  // The server API answers these with an empty body: the SDK throws its typed error from the status alone.
  if (targets.includes('server_api')) return sendStatus(reply, fault.status);
  reply.header('access-control-allow-origin', '*').header('cache-control', 'no-store');
  if (targets.includes('client_api'))
    return reply.code(fault.status).send({ error: { message: CLIENT_API_MESSAGES[fault.status] } });
  return reply.code(fault.status).header('content-type', 'text/plain; charset=utf-8').send(CLIENT_API_MESSAGES[fault.status]);
}

/**
 * Applies the fault rules to every request (TEST ONLY: with no rule, nothing changes). Preflights are left alone:
 * the fault is for the request itself, as a gateway that answers OPTIONS but fails the call.
 */
export function injectFaults(app: FastifyInstance, faults: Faults): void {
  // Connections held open by `timeout` faults, and delays in progress: closing the sandbox ends them.
  const hung = new Set<Socket>();
  const delays = new Set<() => void>();

  app.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    // No rule (always, outside tests): nothing to match, so the request's targets are not worked out.
    if (faults.empty) return undefined;
    const path = request.url.split('?')[0] ?? '';
    if (request.method === 'OPTIONS' || path.startsWith(`${TEST_CONTROL_PREFIX}/`)) return undefined;
    const targets = faultTargets(request.method, path);
    const fault = faults.take({ method: request.method, path, targets });
    if (fault === null) return undefined;
    const { socket } = request.raw;
    switch (fault.type) {
      case 'delay':
        await new Promise<void>((resolve) => {
          const finish = (): void => {
            clearTimeout(timer);
            delays.delete(finish);
            resolve();
          };
          const timer = setTimeout(finish, fault.ms);
          delays.add(finish);
        });
        return undefined;
      case 'timeout':
        reply.hijack();
        hung.add(socket);
        socket.once('close', () => hung.delete(socket));
        return reply;
      case 'drop':
        reply.hijack();
        socket.destroy();
        return reply;
      case 'status':
        return answerStatus(reply, fault, targets);
    }
  });

  app.addHook('preClose', async () => {
    for (const finish of [...delays]) finish();
    for (const socket of hung) socket.destroy();
  });
}
