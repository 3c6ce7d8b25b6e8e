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

/** A change an admin made, as the dashboard tells it: when, what, on what, by whom, and what the change reported. */
export interface AdminChange {
  at: string;
  action: string;
  targetId: string;
  /** null when the account is gone. */
  actorEmail: string | null;
  detail: Record<string, unknown>;
}

/**
 * The changes admins made to these resources with these actions, oldest first: those answered 2xx, each once (an
 * Idempotency-Key's replayed answer changed nothing).
 */
export async function changesTo(db: Db, targetIds: readonly string[], actions: readonly string[]): Promise<AdminChange[]> {
  if (targetIds.length === 0 || actions.length === 0) return [];
  const rows = await db
    .selectFrom('admin_audit_log')
    .leftJoin('accounts', 'accounts.id', 'admin_audit_log.actor_account_id')
    .select([
      'admin_audit_log.created_at',
      'admin_audit_log.action',
      'admin_audit_log.target_id',
      'admin_audit_log.detail',
      'accounts.email',
    ])
    .where('admin_audit_log.target_id', 'in', [...targetIds])
    .where('admin_audit_log.action', 'in', [...actions])
    .where('admin_audit_log.status', '>=', 200)
    .where('admin_audit_log.status', '<', 300)
    .orderBy('admin_audit_log.created_at')
    .orderBy('admin_audit_log.id')
    .execute();
  return rows.flatMap((row) => {
    const detail = row.detail === null ? {} : (JSON.parse(row.detail) as Record<string, unknown>);
    if (detail.replayed === true || row.target_id === null) return [];
    return [{ at: row.created_at, action: row.action, targetId: row.target_id, actorEmail: row.email, detail }];
  });
}
