import type { FastifyRequest } from 'fastify';
import { emailSubject, tryEnsureGatewayCustomer } from '../../accounts/accounts.service.ts';
import { confirmSignUp, requestSignUp } from '../../accounts/sign-up.ts';
import { requireBotcheck } from '../../botcheck/request-check.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { startAccountSession } from '../../plugins/sessions.ts';
import { enforceLimits } from '../../velocity/guard.ts';
import { accountResponse, confirmSignUpBody, signUpAnswer, signUpBody } from './accounts.schemas.ts';

/** Where mailed links point: PUBLIC_URL, else the address this request came to (development). */
function linkOrigin(ctx: AppContext, request: FastifyRequest): string {
  return ctx.config.publicUrl ?? `${request.protocol}://${request.host}`;
}

export function accountsRoutes(app: ApiInstance, ctx: AppContext): void {
  const rateLimit = { max: ctx.config.rateLimits.accountsPerMinute, timeWindow: '1 minute' };
  app.post(
    '/api/accounts',
    {
      config: { rateLimit },
      schema: {
        summary: 'Sign up: answered alike whether or not the email has an account; the rest happens by mail',
        tags: ['accounts'],
        body: signUpBody,
        response: {
          202: signUpAnswer,
          ...problemResponses('validation_failed', 'botcheck_failed', 'rate_limited', 'too_many_attempts'),
        },
      },
    },
    async (request, reply) => {
      const { perIp, mailsPerEmail } = ctx.config.velocity.signUp;
      await enforceLimits(ctx.velocity, request, reply, 'sign_up', { ip: request.ip }, [perIp]);
      await requireBotcheck(ctx, request, 'sign_up', request.body.botcheck);
      // Mails to one address are capped (Kassa must not become a way to flood someone's inbox); past the cap the
      // answer is the same, so it still tells nothing about the address.
      const email = { email: emailSubject(ctx.config.sessionSecret, request.body.email) };
      await ctx.velocity.record('sign_up', email);
      const tooMany = await ctx.velocity.exceeded([mailsPerEmail], email, ['sign_up']);
      if (tooMany !== null) await ctx.velocity.noteRefusal(tooMany, request.log);
      await requestSignUp(ctx, request.body, { origin: linkOrigin(ctx, request), mayMail: tooMany === null });
      ctx.wakeMailSender();
      return reply.status(202).send({ status: 'check_email' as const });
    },
  );

  app.post(
    '/api/accounts/confirmation',
    {
      config: { rateLimit },
      schema: {
        summary: "Finish a sign-up with its mailed link's token, and sign in (guest orders kept only with keepGuestOrders)",
        tags: ['accounts'],
        body: confirmSignUpBody,
        response: {
          201: accountResponse,
          ...problemResponses('validation_failed', 'sign_up_link_invalid', 'email_taken', 'rate_limited'),
        },
      },
    },
    async (request, reply) => {
      const result = await confirmSignUp(ctx.db, request.body.token);
      if (result.kind === 'link_invalid') throw new ProblemError('sign_up_link_invalid');
      if (result.kind === 'email_taken') throw new ProblemError('email_taken');
      await startAccountSession(ctx, request, reply, result.account.id, request.body);
      await tryEnsureGatewayCustomer(ctx.db, ctx.gateway, result.account.id, request.log);
      return reply.status(201).send({ account: result.account });
    },
  );
}
