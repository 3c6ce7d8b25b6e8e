import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { newestFirstAfter, type PageCursor, pageOf } from './page-cursor.ts';

/** One line of the audit log as the merchant reads it: who did what, on what, when, and how it was answered. */
export const activityEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  actorEmail: z.string().nullable().describe("The admin's email; null when the account is gone."),
  action: z.string().describe("The route's action name: `payments.refund`, `disputes.evidence`, `payments.list`, ..."),
  targetId: z.string().nullable().describe('The payment, dispute or subscription acted on; null for a list.'),
  status: z.number().int().describe("The answer's HTTP status."),
  replayed: z.boolean().describe("An Idempotency-Key's saved answer sent again: nothing was done again."),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/**
 * A page of the audit log, newest first (index `admin_audit_log_created`), of these actions only when `actions` is
 * given (the changes, without the reads).
 */
export async function listActivity(
  db: Db,
  filter: { actions: readonly string[] | null; after?: PageCursor; limit: number },
): Promise<{ entries: ActivityEntry[]; nextCursor: string | null }> {
  let query = db
    .selectFrom('admin_audit_log as l')
    .leftJoin('accounts as a', 'a.id', 'l.actor_account_id')
    .select(['l.id', 'l.created_at', 'l.action', 'l.target_id', 'l.status', 'l.detail', 'a.email']);
  if (filter.actions !== null) query = query.where('l.action', 'in', filter.actions.length > 0 ? [...filter.actions] : ['']);
  const rows = await newestFirstAfter(query, { at: 'l.created_at', id: 'l.id' }, filter.after, filter.limit).execute();
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ at: row.created_at, id: row.id }));
  return {
    entries: page.map((row) => ({
      id: row.id,
      at: row.created_at,
      actorEmail: row.email,
      action: row.action,
      targetId: row.target_id,
      status: row.status,
      replayed: row.detail !== null && (JSON.parse(row.detail) as { replayed?: unknown }).replayed === true,
    })),
    nextCursor,
  };
}
