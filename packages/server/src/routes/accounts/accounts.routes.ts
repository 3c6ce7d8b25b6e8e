import { signUp, tryEnsureGatewayCustomer } from '../../accounts/accounts.service.ts';
import { requireBotcheck } from '../../botcheck/request-check.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { startAccountSession } from '../../plugins/sessions.ts';
import { accountResponse, signUpBody } from './accounts.schemas.ts';

export function accountsRoutes(app: ApiInstance, ctx: AppContext): void {
  app.post(
    '/api/accounts',
    {
      config: { rateLimit: { max: ctx.config.rateLimits.accountsPerMinute, timeWindow: '1 minute' } },
      schema: {
        summary: "Sign up and sign in (a guest's orders move to the new account only with keepGuestOrders)",
        tags: ['accounts'],
        body: signUpBody,
        response: {
          201: accountResponse,
          ...problemResponses('validation_failed', 'botcheck_failed', 'email_taken', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      await requireBotcheck(ctx, request, 'sign_up', request.body.botcheck);
      const result = await signUp(ctx.db, request.body);
      if (result.kind === 'email_taken') throw new ProblemError('email_taken');
      await startAccountSession(ctx, request, reply, result.account.id, request.body);
      await tryEnsureGatewayCustomer(ctx.db, ctx.gateway, result.account.id, request.log);
      return reply.status(201).send({ account: result.account });
    },
  );
}
