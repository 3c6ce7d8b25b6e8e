import type { FastifyInstance } from 'fastify';
import { toAccount } from '../../accounts/account.ts';
import { findAccountById } from '../../accounts/accounts.repository.ts';
import { signIn } from '../../accounts/accounts.service.ts';
import type { AppContext } from '../../context.ts';
import { parseInput } from '../../http/parse.ts';
import { ProblemError } from '../../http/problem.ts';
import { clearSessionCookie, startAccountSession } from '../../plugins/sessions.ts';
import { signInBody } from '../accounts/accounts.schemas.ts';

export function sessionRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/session', async (request) => {
    const accountId = request.kassaSession?.account_id ?? null;
    const row = accountId === null ? undefined : await findAccountById(ctx.db, accountId);
    return { account: row === undefined ? null : toAccount(row) };
  });

  app.post('/api/session', { config: { rateLimit: { max: ctx.config.rateLimits.accountsPerMinute, timeWindow: '1 minute' } } }, async (request, reply) => {
    const body = parseInput(signInBody, request.body ?? {});
    const account = await signIn(ctx.db, body);
    if (account === undefined) throw new ProblemError('invalid_credentials');
    await startAccountSession(ctx, request, reply, account.id);
    return { account };
  });

  app.delete('/api/session', async (request, reply) => {
    if (request.kassaSession !== null) await ctx.sessions.delete(request.kassaSession.id);
    clearSessionCookie(reply);
    return reply.status(204).send();
  });
}
