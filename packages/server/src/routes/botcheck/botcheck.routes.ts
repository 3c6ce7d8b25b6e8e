import { z } from 'zod';
import { AltchaVerifier } from '../../botcheck/altcha.ts';
import { BOTCHECK_ACTIONS, botcheckBinding } from '../../botcheck/verifier.ts';
import type { AppContext } from '../../context.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';

/** Handed to the widget as it is: its members are altcha-lib's (v2: `parameters`, `signature`). */
const challengeSchema = z.looseObject({ parameters: z.looseObject({}), signature: z.string() });

/** Only ALTCHA hands out challenges: with a third-party provider the route does not exist (404). */
export function botcheckRoutes(app: ApiInstance, ctx: AppContext): void {
  const altcha = ctx.botcheck;
  if (!(altcha instanceof AltchaVerifier)) return;
  app.get(
    '/api/botcheck/challenge',
    {
      schema: {
        summary: 'A fresh ALTCHA challenge (single use), bound to the visitor\'s session and to one action',
        tags: ['botcheck'],
        querystring: z.object({ action: z.enum(BOTCHECK_ACTIONS).default('payment') }),
        response: { 200: challengeSchema },
      },
    },
    async (request, reply) => {
      // A challenge is single use: never from a cache.
      void reply.header('cache-control', 'no-store');
      const binding = botcheckBinding(ctx.config.botcheck.secret, request.kassaSession?.id ?? null, request.query.action);
      const costFactor = (await ctx.shopAlert.raised()) ? ctx.config.botcheck.elevatedCostFactor : 1;
      return challengeSchema.parse(await altcha.createChallenge(binding, costFactor));
    },
  );
}
