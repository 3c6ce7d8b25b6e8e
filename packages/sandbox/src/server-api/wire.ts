import { gzipSync } from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { xmlDocument } from './xml.ts';
import { transactionResultXml } from './serialize.ts';
import type { XmlReply } from './serialize.ts';
import type { TransactionResult } from '../core/transactions.ts';
import { camelCase } from '../core/case.ts';

/** snake_case keys (what the SDK sends) -> camelCase, recursively. */
export function camelizeKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(camelizeKeys);
  if (value === null || typeof value !== 'object') return value;
  const result: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    result[camelCase(key)] = camelizeKeys(inner);
  }
  return result;
}

/** The object under `key` in a request body (`{ transaction: {...} }`), or an empty object. */
export function section(body: unknown, key: string): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  const inner = (body as Record<string, unknown>)[key];
  return inner !== null && typeof inner === 'object' && !Array.isArray(inner) ? (inner as Record<string, unknown>) : {};
}

export function stringOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** XML answer, gzipped when the client accepts it (the SDK always does, as with the real gateway). */
export function sendXml(request: FastifyRequest, reply: FastifyReply, status: number, [rootTag, value]: XmlReply): FastifyReply {
  const xml = xmlDocument(rootTag, value);
  reply.code(status).header('content-type', 'application/xml; charset=utf-8');
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(gzipSync(xml));
  }
  return reply.send(xml);
}

/** Empty answer with a status (401, 404, ...): the SDK throws a typed error from the status alone. */
export function sendStatus(reply: FastifyReply, status: number): FastifyReply {
  return reply.code(status).header('content-type', 'application/xml; charset=utf-8').send('');
}

/** A transaction operation's answer: success with `successStatus`, otherwise 422; null (no such transaction) 404. */
export function sendTransactionResult(
  request: FastifyRequest,
  reply: FastifyReply,
  result: TransactionResult | null,
  successStatus: number,
): FastifyReply {
  if (result === null) return sendStatus(reply, 404);
  return sendXml(request, reply, result.kind === 'success' ? successStatus : 422, transactionResultXml(result, request.body));
}
