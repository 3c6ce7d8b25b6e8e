import { crc32 } from 'node:zlib';
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

// gzip's header: magic, deflate, no flags, no time, no extra flags, unknown OS (RFC 1952).
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
/** The most a stored deflate block holds (RFC 1951, 3.2.4). */
const STORED_BLOCK = 0xffff;

/**
 * `data` as a gzip member whose deflate blocks are stored, not compressed: what any gunzip reads (the SDK's
 * `zlib.gunzip`), at the cost of a CRC. The answers go over the loopback, where compressing them saves nothing; zlib's
 * deflate (`gzipSync`, which makes and clears a compressor for each answer) cost about 21 µs of the sandbox's CPU an
 * answer, a tenth of its work for a sale, at its fastest level as at its default (issue 10's sbcpu1 pass,
 * bench/FINDINGS.md).
 */
export function storedGzip(data: Buffer): Buffer {
  const parts: Buffer[] = [GZIP_HEADER];
  let offset = 0;
  do {
    const length = Math.min(STORED_BLOCK, data.length - offset);
    const block = Buffer.alloc(5);
    block[0] = offset + length === data.length ? 1 : 0; // BFINAL on the last, BTYPE 00 (stored)
    block.writeUInt16LE(length, 1);
    block.writeUInt16LE(~length & 0xffff, 3);
    parts.push(block, data.subarray(offset, offset + length));
    offset += length;
  } while (offset < data.length);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length >>> 0, 4); // ISIZE: the length modulo 2^32
  parts.push(trailer);
  return Buffer.concat(parts);
}

/** XML answer, gzipped when the client accepts it (the SDK always does, as with the real gateway). */
export function sendXml(request: FastifyRequest, reply: FastifyReply, status: number, [rootTag, value]: XmlReply): FastifyReply {
  const xml = xmlDocument(rootTag, value);
  reply.code(status).header('content-type', 'application/xml; charset=utf-8');
  if (/\bgzip\b/.test(request.headers['accept-encoding'] ?? '')) {
    return reply.header('content-encoding', 'gzip').send(storedGzip(Buffer.from(xml)));
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
