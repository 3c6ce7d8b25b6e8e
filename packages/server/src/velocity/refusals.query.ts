import { z } from 'zod';
import { newestFirstAfter, type PageCursor, pageOf } from '../admin/page-cursor.ts';
import type { Db } from '../db/connect.ts';

/** An action refused before it reached the gateway: by a velocity rule, or by the bot-check (`botcheck_failed`). */
export const refusalSchema = z.object({
  id: z.string(),
  at: z.string(),
  kind: z.enum(['velocity', 'botcheck']),
  rule: z.string().describe('The velocity rule (`payments_per_ip_per_hour`, ...), or `botcheck_failed`.'),
  action: z.string().describe('What was refused: `payment`, `sign_in`, `order`, ...'),
  dimension: z.string().describe('What the rule counted: `ip`, `session`, `account`, `card`, `bin`, `email`, ...'),
  subject: z.string().describe('Who: an IP, an id, or a keyed hash (cards, emails): never a card number or an email.'),
  reason: z
    .string()
    .nullable()
    .describe("A bot-check refusal's reason (`expired`, `already used`, `provider unavailable`, ...)."),
});
export type Refusal = z.infer<typeof refusalSchema>;

export const refusalsPage = z.object({ refusals: z.array(refusalSchema), nextCursor: z.string().nullable() });

/** A page of refusals, newest first (index `velocity_refusals_listed`). */
export async function listRefusals(
  db: Db,
  filter: { kind?: Refusal['kind']; after?: PageCursor; limit: number },
): Promise<{ refusals: Refusal[]; nextCursor: string | null }> {
  let query = db.selectFrom('velocity_refusals').selectAll();
  if (filter.kind !== undefined) query = query.where('rule', filter.kind === 'botcheck' ? '=' : '!=', 'botcheck_failed');
  const rows = await newestFirstAfter(query, { at: 'created_at', id: 'id' }, filter.after, filter.limit).execute();
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ at: row.created_at, id: row.id }));
  return {
    refusals: page.map((row) => ({
      id: row.id,
      at: row.created_at,
      kind: row.rule === 'botcheck_failed' ? 'botcheck' : 'velocity',
      rule: row.rule,
      action: row.action,
      dimension: row.dimension,
      subject: row.subject,
      reason: row.reason,
    })),
    nextCursor,
  };
}
