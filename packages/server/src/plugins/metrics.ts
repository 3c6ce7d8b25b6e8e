import { timingSafeEqual } from 'node:crypto';
import { isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
// A CommonJS package: under Node's ESM interop its plugin is the module's `default` member.
import fastifyMetricsModule from 'fastify-metrics';
import { ProblemError } from '../http/problem.ts';
import type { Metrics } from '../metrics/metrics.ts';

export const METRICS_PATH = '/metrics';

function isLoopback(address: string): boolean {
  return isIP(address) !== 0 && (address === '::1' || address.startsWith('127.') || address.startsWith('::ffff:127.'));
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * Who may read the metrics (they tell a shop's volume): with METRICS_TOKEN, whoever sends it as a bearer token;
 * without, the machine itself only (a loopback client that came through no proxy). Anyone else gets 404, as if there
 * were nothing here.
 */
function mayRead(request: FastifyRequest, token: string | null): boolean {
  if (token !== null) {
    const header = request.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameToken(header.slice('Bearer '.length), token);
  }
  return fromThisMachine(request);
}

/** A client on this machine that came through no proxy (also the dev outbox's only reader: routes/dev/). */
export function fromThisMachine(request: FastifyRequest): boolean {
  return isLoopback(request.ip) && request.headers['x-forwarded-for'] === undefined && request.headers.forwarded === undefined;
}

/**
 * Prometheus metrics at /metrics (text format): the product's own (metrics/metrics.ts: payments by outcome, gateway
 * latency, bot-check outcomes, webhook lag), fastify-metrics' per-route HTTP durations and the process' defaults, all
 * in the app's own registry.
 */
export async function registerMetrics(app: FastifyInstance, metrics: Metrics, token: string | null): Promise<void> {
  await app.register(fastifyMetricsModule.default, {
    endpoint: null,
    defaultMetrics: { enabled: true, register: metrics.registry, prefix: 'kassa_' },
    routeMetrics: {
      // A histogram only: fastify-metrics' per-route summary updated a t-digest on every request (CPU and garbage on
      // each, issue 10), and a summary's quantiles are this process's alone, which no query can add up over several
      // instances; the histogram's buckets can be.
      enabled: { histogram: true, summary: false },
      registeredRoutesOnly: true,
      groupStatusCodes: false,
      routeBlacklist: [METRICS_PATH],
      overrides: {
        histogram: { name: 'kassa_http_request_duration_seconds', registers: [metrics.registry] },
        // Made by fastify-metrics even when off: kept out of every registry (the global one would refuse a second app).
        summary: { name: 'kassa_http_request_summary_seconds', registers: [] },
      },
    },
  });
  app.get(METRICS_PATH, { schema: { hide: true } }, async (request, reply) => {
    if (!mayRead(request, token)) throw new ProblemError('not_found');
    return reply
      .type(metrics.registry.contentType)
      .header('cache-control', 'no-store')
      .send(await metrics.registry.metrics());
  });
}
