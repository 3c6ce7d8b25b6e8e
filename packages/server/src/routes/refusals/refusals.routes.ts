import { z } from 'zod';
import { decodePageCursor } from '../../admin/page-cursor.ts';
import type { AppContext } from '../../context.ts';
import { problemResponses } from '../../http/api-schemas.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';
import { listRefusals, refusalsPage } from '../../velocity/refusals.query.ts';
import { cursorParam } from '../admin/admin.schemas.ts';

const listRefusalsQuery = z.object({
  kind: z.enum(['velocity', 'botcheck']).optional().describe("Only the velocity rules' refusals, or only the bot-check's."),
  cursor: cursorParam(decodePageCursor),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});

/** The card-testing defence's refusals, for the merchant's dashboard (admins only, like every /api/admin/ route). */
export function refusalsRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/admin/refusals',
    {
      config: { adminAction: 'refusals.list' },
      schema: {
        summary: 'Actions refused before the gateway (velocity rules, failed bot-checks), newest first',
        tags: ['admin'],
        querystring: listRefusalsQuery,
        response: {
          200: refusalsPage,
          ...problemResponses('validation_failed'),
        },
      },
    },
    async (request) => {
      const { cursor, ...filter } = request.query;
      return listRefusals(ctx.db, { ...filter, ...(cursor !== undefined ? { after: cursor } : {}) });
    },
  );
}
