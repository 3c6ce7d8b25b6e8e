import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';

/** Handed to the widget as it is: its members are altcha-lib's (v2: `parameters`, `signature`). */
const challengeSchema = z.looseObject({ parameters: z.looseObject({}), signature: z.string() });

export function botcheckRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/botcheck/challenge',
    { schema: { summary: 'A fresh ALTCHA challenge (single use)', tags: ['botcheck'], response: { 200: challengeSchema } } },
    async (_request, reply) => {
      // A challenge is single use: never from a cache.
      void reply.header('cache-control', 'no-store');
      return challengeSchema.parse(await ctx.botcheck.createChallenge());
    },
  );
}
