import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Expression, ExpressionBuilder, Transaction } from 'kysely';
import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import type { Database } from '../db/schema.ts';
import { recordDispute } from '../admin/disputes.query.ts';
import { subjectId } from '../gateway/gateway-webhooks.ts';
import type { GatewayNotification } from '../gateway/gateway-webhooks.ts';
import { nowIso } from '../ids.ts';

/** What the gateway's settlement notifications can report of a payment (`payments.settlement_status`). */
export const SETTLEMENT_STATUSES = ['settled', 'settlement_declined'] as const;
export const settlementStatusSchema = z.enum(SETTLEMENT_STATUSES);

/** The settlement each transaction notification reports. */
const SETTLEMENT_BY_KIND: Readonly<Record<string, (typeof SETTLEMENT_STATUSES)[number]>> = {
  transaction_settled: 'settled',
  transaction_settlement_declined: 'settlement_declined',
};

/**
 * The notification's stable id: every delivery of one notification carries the same kind, subject and gateway
 * timestamp (the gateway signs them), so a redelivery maps to the same row.
 */
/** The status a subscription kind implies, for notifications that leave the status out. */
const SUBSCRIPTION_STATUS_BY_KIND: Readonly<Record<string, string>> = {
  subscription_went_active: 'Active',
  subscription_went_past_due: 'Past Due',
  subscription_canceled: 'Canceled',
  subscription_expired: 'Expired',
};

export function notificationId(notification: GatewayNotification): string {
  const digest = createHash('sha256')
    .update(`${notification.kind}\n${subjectId(notification)}\n${notification.timestamp}`)
    .digest('hex');
  return `whn_${digest.slice(0, 40)}`;
}

export type ReceiveOutcome = { kind: 'processed' | 'duplicate'; id: string };

/**
 * Records a verified notification and applies it, in one transaction. The insert comes first and claims the id: a
 * second delivery (even one running at the same moment: PostgreSQL makes it wait on the first's uncommitted row,
 * SQLite runs one writer at a time) inserts nothing and applies nothing. If applying fails, the claim rolls back
 * with it and the gateway's retry processes the notification again.
 */
export async function receiveNotification(db: Db, notification: GatewayNotification): Promise<ReceiveOutcome> {
  const id = notificationId(notification);
  return db.transaction().execute(async (tx) => {
    const claimed = await tx
      .insertInto('webhook_notifications')
      .values({
        id,
        kind: notification.kind,
        subject_id: subjectId(notification),
        notified_at: notification.timestamp,
        received_at: nowIso(),
      })
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    if (Number(claimed.numInsertedOrUpdatedRows ?? 0n) !== 1) return { kind: 'duplicate', id };
    await apply(tx, notification);
    return { kind: 'processed', id };
  });
}

/** The payment of this transaction settled (or not) as of `at`, unless a more recent report was applied. */
async function settle(
  tx: Transaction<Database>,
  transactionId: string,
  settlement: (typeof SETTLEMENT_STATUSES)[number],
  at: string,
): Promise<void> {
  await tx
    .updateTable('payments')
    .set({ settlement_status: settlement, settlement_status_at: at, updated_at: nowIso() })
    .where('transaction_id', '=', transactionId)
    .where((eb) => eb.or([eb('settlement_status_at', 'is', null), eb('settlement_status_at', '<=', at)]))
    .execute();
}

/**
 * The latest settlement the gateway already told of a transaction, as the values of the payment's `settlement_status`
 * and `settlement_status_at` (null when none): a sale that settles at once (the sandbox's dispute test card, a gateway
 * batch that closes during a slow answer) is notified before its answer is written, when no payment has its id yet.
 * Subqueries of the statement that records the charge (payments.repository.ts), so that asks no statement more.
 */
export function toldSettlement(
  eb: ExpressionBuilder<Database, 'payments'>,
  transactionId: string,
): { settlement_status: Expression<string | null>; settlement_status_at: Expression<string | null> } {
  const latest = eb
    .selectFrom('webhook_notifications')
    .where('subject_id', '=', transactionId)
    .where('kind', 'in', Object.keys(SETTLEMENT_BY_KIND))
    .orderBy('notified_at', 'desc')
    .limit(1);
  const settlement = sql<string>`case ${sql.ref('kind')} ${sql.join(
    Object.entries(SETTLEMENT_BY_KIND).map(([kind, status]) => sql`when ${kind} then ${status}`),
    sql` `,
  )} end`;
  return {
    settlement_status: latest.select(settlement.as('settlement')).$asScalar(),
    settlement_status_at: latest.select('notified_at').$asScalar(),
  };
}

async function apply(tx: Transaction<Database>, notification: GatewayNotification): Promise<void> {
  const at = notification.timestamp;
  switch (notification.subject) {
    case 'transaction': {
      const settlement = SETTLEMENT_BY_KIND[notification.kind];
      // A refund credit's id matches no payment: nothing to update. Neither does a sale whose answer is not recorded
      // yet: recording it applies this notification then (toldSettlement).
      if (settlement !== undefined) await settle(tx, notification.transaction.id, settlement, at);
      return;
    }
    case 'subscription': {
      const s = notification.subscription;
      const state = {
        plan_id: s.planId,
        status: s.status ?? SUBSCRIPTION_STATUS_BY_KIND[notification.kind] ?? null,
        next_billing_date: s.nextBillingDate,
        failure_count: s.failureCount,
        last_event: notification.kind,
        notified_at: at,
      };
      // What a notification leaves out keeps its known value; a retry that arrives after a newer notification
      // replaces nothing (only a report at least as recent does).
      await tx
        .insertInto('subscription_states')
        .values({ id: s.id, ...state })
        .onConflict((oc) =>
          oc
            .column('id')
            .doUpdateSet((eb) => ({
              plan_id: eb.fn.coalesce('excluded.plan_id', 'subscription_states.plan_id'),
              status: eb.fn.coalesce('excluded.status', 'subscription_states.status'),
              next_billing_date: eb.fn.coalesce('excluded.next_billing_date', 'subscription_states.next_billing_date'),
              failure_count: eb.fn.coalesce('excluded.failure_count', 'subscription_states.failure_count'),
              last_event: eb.ref('excluded.last_event'),
              notified_at: eb.ref('excluded.notified_at'),
            }))
            .where('subscription_states.notified_at', '<=', at),
        )
        .execute();
      return;
    }
    case 'dispute':
      await recordDispute(tx, notification.dispute, at);
      return;
    case 'other':
      return;
  }
}
