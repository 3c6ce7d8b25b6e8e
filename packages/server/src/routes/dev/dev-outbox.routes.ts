import { z } from 'zod';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import { ProblemError } from '../../http/problem.ts';
import { fromThisMachine } from '../../plugins/metrics.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { normalizeEmail } from '../../accounts/account.ts';

const outboxMail = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  createdAt: z.string(),
  sentAt: z.string().nullable(),
});
const outboxAnswer = z.object({ mails: z.array(outboxMail) });

/**
 * The dev outbox: with no mail server (the `dev` delivery, src/mail/delivery.ts) the mails Kassa sent are read here,
 * in a browser or by the tests. Only from this machine (its links sign people up): anyone else gets 404.
 */
export function devOutboxRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/dev/outbox',
    {
      schema: {
        summary: 'Development only: the latest mails to one address (the dev mail delivery, from this machine only)',
        tags: ['dev'],
        querystring: z.object({ to: z.string().trim().min(1).max(254) }),
        response: { 200: outboxAnswer, ...problemResponses('not_found') },
      },
    },
    async (request) => {
      if (ctx.outbox.deliveryKind !== 'dev' || !fromThisMachine(request)) throw new ProblemError('not_found');
      const rows = await ctx.outbox.recentTo(normalizeEmail(request.query.to));
      return {
        mails: rows.map((row) => ({
          id: row.id,
          to: row.recipient,
          subject: row.subject,
          body: row.body,
          createdAt: row.created_at,
          sentAt: row.sent_at,
        })),
      };
    },
  );
}
