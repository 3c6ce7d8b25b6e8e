import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.ts';
import { problemBody } from '../http/problem.ts';
import { databaseRateLimitStore } from './rate-limit-store.ts';

/**
 * Per-route limits (payments, accounts) are set on the routes; nothing is limited globally. They are counted in the
 * database, so several instances behind one address enforce one limit.
 */
export async function registerRateLimits(app: FastifyInstance, db: Db): Promise<void> {
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(db),
    errorResponseBuilder: (_request, context) => {
      const body = problemBody('rate_limited', { detail: `Too many requests: at most ${context.max} per ${context.after}.` });
      // The plugin throws what we return: give it the status our error handler maps.
      return Object.assign(new Error(body.detail), { statusCode: 429, problem: body });
    },
  });
}
