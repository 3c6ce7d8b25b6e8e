import type { Db } from '../db/connect.ts';
import type { AdminAuditRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';

export interface AuditEntry {
  actorAccountId: string;
  action: string;
  targetId: string | null;
  detail: Record<string, unknown> | null;
  status: number;
}

export async function recordAdminAction(db: Db, entry: AuditEntry, now: Date = new Date()): Promise<void> {
  await db
    .insertInto('admin_audit_log')
    .values({
      id: newId('aud'),
      actor_account_id: entry.actorAccountId,
      action: entry.action,
      target_id: entry.targetId,
      detail: entry.detail === null ? null : JSON.stringify(entry.detail),
      status: entry.status,
      created_at: nowIso(now),
    })
    .execute();
}

/** What admins did to one resource, oldest first (a payment's timeline). */
export function auditEntriesFor(db: Db, targetId: string): Promise<AdminAuditRow[]> {
  return db
    .selectFrom('admin_audit_log')
    .selectAll()
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
