import { z } from 'zod';
import { toAccount } from '../../accounts/account.ts';
import { findAccountById } from '../../accounts/accounts.repository.ts';
import { emailSubject, signIn } from '../../accounts/accounts.service.ts';
import { requireBotcheck } from '../../botcheck/request-check.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { enforceLimits } from '../../velocity/guard.ts';
import { clearSessionCookie, startAccountSession } from '../../plugins/sessions.ts';
import { accountResponse, sessionStateSchema, signInBody } from '../accounts/accounts.schemas.ts';
import { listGuestOrders } from '../../orders/orders.repository.ts';

const signedOut = z.undefined();

export function sessionRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/session',
    {
      schema: {
        summary: 'Who the visitor is signed in as, and the orders of a guest session (offered to keep at sign-in)',
        tags: ['session'],
        response: { 200: sessionStateSchema },
      },
    },
    async (request) => {
      const session = request.kassaSession;
      const row = session?.account_id == null ? undefined : await findAccountById(ctx.db, session.account_id);
      const guestOrders = session !== null && session.account_id === null ? await listGuestOrders(ctx.db, session.id) : [];
      return { account: row === undefined ? null : toAccount(row), guestOrders };
    },
  );

  app.post(
    '/api/session',
    {
      config: { rateLimit: { max: ctx.config.rateLimits.accountsPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: "Sign in (a guest's orders move to the account only with keepGuestOrders)",
        tags: ['session'],
        body: signInBody,
        response: {
          200: accountResponse,
          ...problemResponses('validation_failed', 'botcheck_failed', 'invalid_credentials', 'rate_limited', 'too_many_attempts'),
        },
      },
    },
    async (request, reply) => {
      // Counted before the password is checked (a throttled guess costs no hashing); a success is taken back.
      const subjects = { email: emailSubject(ctx.config.sessionSecret, request.body.email), ip: request.ip };
      const attempt = await enforceLimits(ctx.velocity, request, reply, 'sign_in', subjects, ctx.config.velocity.signIn);
      await requireBotcheck(ctx, request, 'sign_in', request.body.botcheck);
      const account = await signIn(ctx.db, request.body, ctx.config.passwordCost);
      if (account === undefined) throw new ProblemError('invalid_credentials');
      await ctx.velocity.forget(attempt);
      await startAccountSession(ctx, request, reply, account.id, request.body);
      return { account };
    },
  );

  app.delete(
    '/api/session',
    { schema: { summary: 'Sign out', tags: ['session'], response: { 204: signedOut } } },
    async (request, reply) => {
      if (request.kassaSession !== null) await ctx.sessions.delete(request.kassaSession.id);
      clearSessionCookie(reply);
      return reply.status(204).send();
    },
  );
}
