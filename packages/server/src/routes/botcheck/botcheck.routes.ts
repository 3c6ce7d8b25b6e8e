import { z } from 'zod';
import { AltchaVerifier } from '../../botcheck/altcha.ts';
import { botcheckSettings, steppedUp } from '../../botcheck/settings.ts';
import { BOTCHECK_ACTIONS, botcheckBinding } from '../../botcheck/verifier.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { enforceLimits } from '../../velocity/guard.ts';
import { botcheckSettingsSchema } from './botcheck.schemas.ts';

/** Handed to the widget as it is: its members are altcha-lib's (v2: `parameters`, `signature`). */
const challengeSchema = z.looseObject({ parameters: z.looseObject({}), signature: z.string() });

const actionQuery = z.object({ action: z.enum(BOTCHECK_ACTIONS).default('payment') });

const settingsAnswer = z.object({
  botcheck: botcheckSettingsSchema.nullable().describe('Null: the merchant does not guard this action.'),
});

export function botcheckRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/botcheck/settings',
    {
      schema: {
        summary: 'Whether an action needs a bot-check token (BOTCHECK_ON), and how the page gets one',
        tags: ['botcheck'],
        querystring: actionQuery,
        response: { 200: settingsAnswer },
      },
    },
    async (request) => {
      const { action } = request.query;
      if (!ctx.config.botcheck.actions.includes(action)) return { botcheck: null };
      const stepUp = await steppedUp(ctx.config.botcheck, ctx.shopAlert, action);
      return { botcheck: botcheckSettings(ctx.config.botcheck, request.kassaSession?.id ?? null, action, stepUp) };
    },
  );

  // Only ALTCHA hands out challenges: with a third-party provider the route does not exist (404).
  const altcha = ctx.botcheck;
  if (!(altcha instanceof AltchaVerifier)) return;
  app.get(
    '/api/botcheck/challenge',
    {
      schema: {
        summary: "A fresh ALTCHA challenge (single use), bound to the visitor's session and to one action",
        tags: ['botcheck'],
        querystring: actionQuery,
        response: { 200: challengeSchema, ...problemResponses('too_many_attempts') },
      },
    },
    async (request, reply) => {
      // A challenge is single use: never from a cache.
      void reply.header('cache-control', 'no-store');
      const sessionId = request.kassaSession?.id ?? null;
      const client = { ip: request.ip, ...(sessionId === null ? {} : { session: sessionId }) };
      await enforceLimits(ctx.velocity, request, reply, 'botcheck_challenge', client, ctx.config.velocity.botcheckChallenges);
      const binding = botcheckBinding(ctx.config.botcheck.secret, sessionId, request.query.action);
      // Dearer for everyone while the shop is under attack, and for a client that keeps failing payments.
      const elevated =
        (await ctx.shopAlert.raised()) || (await ctx.velocity.exceeded(ctx.config.velocity.failingClient, client, [])) !== null;
      const costFactor = elevated ? ctx.config.botcheck.elevatedCostFactor : 1;
      return challengeSchema.parse(await altcha.createChallenge(binding, costFactor));
    },
  );
}
