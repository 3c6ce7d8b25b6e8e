import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { problemBody } from '../http/problem.ts';

/** Per-route limits (payments, accounts) are set on the routes; nothing is limited globally. */
export async function registerRateLimits(app: FastifyInstance): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: (_request, context) => {
      const body = problemBody('rate_limited', { detail: `Too many requests: at most ${context.max} per ${context.after}.` });
      // The plugin throws what we return: give it the status our error handler maps.
      return Object.assign(new Error(body.detail), { statusCode: 429, problem: body });
    },
  });
}
