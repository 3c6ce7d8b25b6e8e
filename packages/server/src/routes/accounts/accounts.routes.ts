import type { FastifyInstance } from 'fastify';
import { signUp, tryEnsureGatewayCustomer } from '../../accounts/accounts.service.ts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../http/parse.ts';
import { ProblemError } from '../../http/problem.ts';
import { startAccountSession } from '../../plugins/sessions.ts';
import { signUpBody } from './accounts.schemas.ts';

export function accountsRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.post('/api/accounts', { config: { rateLimit: { max: ctx.config.rateLimits.accountsPerMinute, timeWindow: '1 minute' } } }, async (request, reply) => {
    const body = parseInput(signUpBody, request.body ?? {});
    const result = await signUp(ctx.db, body);
    if (result.kind === 'email_taken') throw new ProblemError('email_taken');
    await startAccountSession(ctx, request, reply, result.account.id);
    await tryEnsureGatewayCustomer(ctx.db, ctx.gateway, result.account.id, request.log);
    return reply.status(201).send({ account: result.account });
  });
}
