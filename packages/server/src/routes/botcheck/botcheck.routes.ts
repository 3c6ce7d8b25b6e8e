import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export function botcheckRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/botcheck/challenge', async (_request, reply) => {
    // A challenge is single use: never from a cache.
    void reply.header('cache-control', 'no-store');
    return ctx.botcheck.createChallenge();
  });
}
