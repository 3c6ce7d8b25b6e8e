import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { problemResponses } from '../http/api-schemas.ts';
import { PROBLEM_CONTENT_TYPE, ProblemError } from '../http/problem.ts';
import type { ProblemCode } from '../http/problem.ts';
import type { IdempotencyRepository, KeyAnswer } from '../payments/idempotency.repository.ts';
import { hookList } from './route-hooks.ts';

/** A mutating route opts in with `config: { idempotency: { ... } }`. */
export interface IdempotencyOptions {
  /** Body members that are credentials, not parameters (a bot-check token): a retry may carry fresh ones. */
  credentials?: readonly string[];
  /** What a visitor without a session gets: they own nothing the route could act on. */
  withoutVisitor: ProblemCode;
}

/** The key a request holds: `ref` (scope and key) ties the work it starts to it, so a retry can find that work. */
export interface HeldKey {
  scope: string;
  key: string;
  ref: string;
  /** The handler threw: the key was released, nothing is saved. */
  released: boolean;
  /** The handler's own work saved its answer (sendSaved): its send saves nothing more. */
  answered: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    idempotency?: IdempotencyOptions;
  }
  interface FastifyRequest {
    /** The Idempotency-Key this request holds (routes that opted in, once claimed). */
    idempotencyKey: HeldKey | null;
  }
}

export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Set on an answer sent again for a key already answered. */
export const REPLAYED_HEADER = 'idempotent-replayed';

export const idempotencyKeySchema = z
  .string({ error: 'Send an Idempotency-Key header.' })
  .min(1, 'Send an Idempotency-Key header.')
  .max(255, 'Use at most 255 characters.')
  .describe('Any unique string per operation (a UUID): a retry with the same key gets the first answer.');

/**
 * The Idempotency-Key protocol (Stripe's semantics) for every mutating route that opts in. The key, per visitor, is
 * claimed before the handler runs: one request wins; the others get the saved answer (with `Idempotent-Replayed`),
 * 409 `idempotency_key_in_use` while the first runs, or 422 `idempotency_key_reused` if their request differs.
 * What the handler SENDS is saved and replayed; what it THROWS (an unknown outcome, a refusal that passes) releases
 * the key, so the same request may run again. The request is the route, its params and its body less `credentials`.
 */
export function registerIdempotency(app: FastifyInstance, keys: IdempotencyRepository): void {
  app.decorateRequest('idempotencyKey', null);
  app.addHook('onRoute', (route) => {
    const options = route.config?.idempotency;
    if (options === undefined) return;
    const keyHeader = { [IDEMPOTENCY_HEADER]: idempotencyKeySchema };
    const headers = route.schema?.headers;
    route.schema = {
      ...route.schema,
      headers: headers instanceof z.ZodObject ? headers.extend(keyHeader) : z.object(keyHeader),
      response: Object.assign(problemResponses('idempotency_key_in_use', 'idempotency_key_reused'), route.schema?.response),
    };
    route.preHandler = [...hookList(route.preHandler), (request, reply) => claim(keys, options, request, reply)];
    route.onError = [...hookList(route.onError), async (request) => release(keys, request)];
    route.onSend = [...hookList(route.onSend), async (request, reply, payload) => save(keys, request, reply, payload)];
  });
}

async function claim(
  keys: IdempotencyRepository,
  options: IdempotencyOptions,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<void> {
  const session = request.kassaSession;
  if (session === null) throw new ProblemError(options.withoutVisitor);
  // Keys are per visitor (Stripe scopes them per account).
  const scope = session.account_id ?? session.id;
  const key = String(request.headers[IDEMPOTENCY_HEADER]);
  const claimed = await keys.claim(scope, key, requestHash(request, options));
  if (claimed.kind === 'reused') throw new ProblemError('idempotency_key_reused');
  if (claimed.kind === 'in_use') throw new ProblemError('idempotency_key_in_use');
  if (claimed.kind === 'replay') {
    await reply
      .status(claimed.status)
      .header(REPLAYED_HEADER, 'true')
      .type(savedType(claimed.status))
      // The text as first sent: a string with a JSON content type goes out as it is, not serialized again.
      .send(claimed.body ?? undefined);
    return;
  }
  request.idempotencyKey = { scope, key, ref: `${scope}:${key}`, released: false, answered: false };
}

/** The hash pins the request a key was first used with; credentials are left out, a retry may renew them. */
function requestHash(request: FastifyRequest, options: IdempotencyOptions): string {
  const body = typeof request.body === 'object' && request.body !== null ? { ...request.body } : request.body;
  if (typeof body === 'object' && body !== null) {
    for (const credential of options.credentials ?? []) delete (body as Record<string, unknown>)[credential];
  }
  return createHash('sha256')
    .update(JSON.stringify([request.routeOptions.url, request.params, body ?? null]))
    .digest('hex');
}

async function release(keys: IdempotencyRepository, request: FastifyRequest): Promise<void> {
  const held = request.idempotencyKey;
  if (held === null || held.released) return;
  held.released = true;
  await keys.unlock(held.scope, held.key);
}

async function save(
  keys: IdempotencyRepository,
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
): Promise<unknown> {
  const held = request.idempotencyKey;
  if (held === null || held.released || held.answered) return payload;
  // What the handler sent, as text (its schema's serializer has run); a bodyless answer (204) is replayed bodyless.
  const body = typeof payload === 'string' && payload !== '' ? payload : null;
  await keys.complete(held.scope, held.key, reply.statusCode, body);
  return payload;
}

/** The content type an answer saved as text is sent with. */
function savedType(status: number): string {
  return status >= 400 ? PROBLEM_CONTENT_TYPE : 'application/json; charset=utf-8';
}

/**
 * The answer `request`'s key would save if the handler sent `payload` with `status`: its text as the route's schema of
 * that status serializes it. For a handler whose work saves its answer with its own write (the payment's outcome, one
 * commit), which then sends it with sendSaved.
 */
export function answerToSave(request: FastifyRequest, reply: FastifyReply, status: number, payload: object): KeyAnswer {
  const held = request.idempotencyKey;
  if (held === null) throw new Error(`${request.routeOptions.url} did not opt into the Idempotency-Key protocol`);
  // A problem's schema is declared for its media type (api-schemas.ts), an answer's for the status alone.
  const code = String(status);
  const serialize =
    status >= 400 ? reply.getSerializationFunction(code, 'application/problem+json') : reply.getSerializationFunction(code);
  if (serialize === undefined) throw new Error(`${request.routeOptions.url} declares no answer for ${status}`);
  return { scope: held.scope, key: held.key, status, body: serialize(payload as Record<string, unknown>) };
}

/** Sends an answer the handler's work saved (answerToSave) as it was saved, as a replay of it will be; saved once. */
export function sendSaved(request: FastifyRequest, reply: FastifyReply, answer: KeyAnswer): FastifyReply {
  if (request.idempotencyKey !== null) request.idempotencyKey.answered = true;
  return reply.status(answer.status).type(savedType(answer.status)).send(answer.body);
}

/** The key a handler's work is tied to; only routes that opted in have one. */
export function heldKeyRef(request: FastifyRequest): string {
  if (request.idempotencyKey === null)
    throw new Error(`${request.routeOptions.url} did not opt into the Idempotency-Key protocol`);
  return request.idempotencyKey.ref;
}
