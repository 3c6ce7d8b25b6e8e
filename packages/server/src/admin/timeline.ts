import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import type { RefundRow } from '../db/schema.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { fromDecimalString, moneySchema } from '../money.ts';
import { paymentStatusSchema } from '../payments/payment.ts';
import { changesTo } from './audit-log.repository.ts';
import type { AdminPayment } from './payments.query.ts';

/** The emails of these accounts, by id. */
async function emailsOf(db: Db, accountIds: readonly string[]): Promise<Map<string, string>> {
  if (accountIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('accounts')
    .select(['id', 'email'])
    .where('id', 'in', [...new Set(accountIds)])
    .execute();
  return new Map(rows.map((row) => [row.id, row.email]));
}

/** The dispute actions a timeline tells, by the audit log's action names (routes/admin). */
const DISPUTE_ACTION_OF = {
  'disputes.evidence': 'evidence_added',
  'disputes.removeEvidence': 'evidence_removed',
  'disputes.accept': 'accepted',
  'disputes.finalize': 'submitted',
} as const;
const DISPUTE_ACTIONS = ['evidence_added', 'evidence_removed', 'accepted', 'submitted'] as const;

/**
 * One thing that happened to a payment, as the dashboard's timeline shows it (oldest first). `at` is always when it
 * happened: the product's time for attempts and refunds, the gateway's for its statuses and its notifications (a
 * webhook's `at` is when the gateway sent it; `receivedAt` when it reached the product, which a retry can delay).
 */
export const timelineEventSchema = z.discriminatedUnion('type', [
  z
    .object({ type: z.literal('attempt'), at: z.string(), paymentId: z.string(), status: paymentStatusSchema })
    .describe('An attempt to pay the order (this one or another), as it ended.'),
  z
    .object({ type: z.literal('gateway_status'), at: z.string(), status: z.string(), amount: moneySchema.nullable() })
    .describe(
      'A status the gateway reported for the transaction (`authorized`, `submitted_for_settlement`, `settled`, `voided`, ...).',
    ),
  z.object({
    type: z.enum(['refund', 'void']),
    at: z.string(),
    refundId: z.string(),
    amount: moneySchema,
    actorAccountId: z.string(),
    actorEmail: z.string().nullable().describe("The admin's email; null when the account is gone."),
  }),
  z
    .object({
      type: z.literal('dispute_action'),
      at: z.string(),
      disputeId: z.string(),
      action: z.enum(DISPUTE_ACTIONS),
      evidenceKind: z.enum(['text', 'document']).nullable().describe('What evidence was added; null for other actions.'),
      documentName: z.string().nullable(),
      actorEmail: z.string().nullable(),
    })
    .describe('What an admin did with a dispute on the payment: evidence added or removed, accepted, submitted to the bank.'),
  z
    .object({ type: z.literal('webhook'), at: z.string(), kind: z.string(), receivedAt: z.string() })
    .describe(
      'A gateway notification about the payment, its refunds or its disputes: `at` when the gateway sent it, `receivedAt` when it arrived.',
    ),
]);
export type TimelineEvent = z.infer<typeof timelineEventSchema>;

export const paymentTimelineSchema = z.object({
  gatewayStatus: z
    .string()
    .nullable()
    .describe("The transaction's status at the gateway now; null without a transaction or when the gateway did not answer."),
  gatewayAnswered: z.boolean().describe('False when the gateway could not be asked: the timeline lacks its statuses.'),
  events: z.array(timelineEventSchema),
});
export type PaymentTimeline = z.infer<typeof paymentTimelineSchema>;

/** An attempt comes before the statuses of its transaction, which come before their webhooks and the refunds they allow. */
const SAME_SECOND_ORDER: Readonly<Record<TimelineEvent['type'], number>> = {
  attempt: 0,
  gateway_status: 1,
  webhook: 2,
  refund: 3,
  void: 3,
  dispute_action: 3,
};

/**
 * The payment's story from the product's records (attempts, refunds, the gateway's notifications) and the gateway's
 * own status history, asked live: the gateway is the source of truth for where the money is. A gateway that does not
 * answer leaves its statuses out rather than failing the page.
 */
export async function paymentTimeline(
  deps: { db: Db; gateway: PaymentGateway | null },
  payment: AdminPayment,
  attempts: readonly AdminPayment[],
  refunds: readonly RefundRow[],
): Promise<PaymentTimeline> {
  const events: TimelineEvent[] = attempts.map((attempt) => ({
    type: 'attempt',
    at: attempt.createdAt,
    paymentId: attempt.id,
    status: attempt.status,
  }));
  const actors = await emailsOf(
    deps.db,
    refunds.map((refund) => refund.actor_account_id),
  );
  for (const refund of refunds) {
    events.push({
      type: refund.kind,
      at: refund.created_at,
      refundId: refund.id,
      amount: { amount: refund.amount, currency: refund.currency },
      actorAccountId: refund.actor_account_id,
      actorEmail: actors.get(refund.actor_account_id) ?? null,
    });
  }
  const disputes =
    payment.transactionId === null
      ? []
      : await deps.db.selectFrom('disputes').select('id').where('transaction_id', '=', payment.transactionId).execute();
  const disputeChanges = await changesTo(
    deps.db,
    disputes.map((dispute) => dispute.id),
    Object.keys(DISPUTE_ACTION_OF),
  );
  for (const change of disputeChanges) {
    const { evidenceKind, documentName } = change.detail;
    events.push({
      type: 'dispute_action',
      at: change.at,
      disputeId: change.targetId,
      action: DISPUTE_ACTION_OF[change.action as keyof typeof DISPUTE_ACTION_OF],
      evidenceKind: evidenceKind === 'text' || evidenceKind === 'document' ? evidenceKind : null,
      documentName: typeof documentName === 'string' ? documentName : null,
      actorEmail: change.actorEmail,
    });
  }
  const subjects = [
    payment.transactionId,
    ...refunds.map((refund) => refund.transaction_id),
    ...disputes.map((dispute) => dispute.id),
  ].filter((id) => id !== null);
  if (subjects.length > 0) {
    const notifications = await deps.db
      .selectFrom('webhook_notifications')
      .selectAll()
      .where('subject_id', 'in', subjects)
      .execute();
    for (const notification of notifications)
      events.push({
        type: 'webhook',
        at: notification.notified_at,
        kind: notification.kind,
        receivedAt: notification.received_at,
      });
  }

  let gatewayStatus: string | null = null;
  let gatewayAnswered = true;
  if (payment.transactionId !== null && deps.gateway !== null) {
    try {
      const found = await deps.gateway.transactionHistory(payment.transactionId);
      gatewayStatus = found.status;
      for (const entry of found.history) {
        const amount = entry.amount === null ? null : fromDecimalString(entry.amount, payment.amount.currency);
        events.push({ type: 'gateway_status', at: entry.at, status: entry.status, amount });
      }
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      gatewayAnswered = false;
    }
  } else if (payment.transactionId !== null) {
    gatewayAnswered = false;
  }
  // By when each thing happened (a webhook by when the gateway sent it, not when it arrived: a notification retried
  // later still tells of the status it reports). The gateway stamps whole seconds, the product milliseconds: within
  // one second, order by what causes what.
  const second = (at: string) => Math.floor(Date.parse(at) / 1000);
  events.sort(
    (a, b) =>
      second(a.at) - second(b.at) || SAME_SECOND_ORDER[a.type] - SAME_SECOND_ORDER[b.type] || Date.parse(a.at) - Date.parse(b.at),
  );
  return { gatewayStatus, gatewayAnswered, events };
}
