import { z } from 'zod';
import type { Db } from '../db/connect.ts';
import { fromDecimalString, moneySchema } from '../money.ts';
import { newestFirstAfter, type PageCursor, pageOf } from './page-cursor.ts';

/** A chargeback as the gateway's webhooks last reported it, with the payment it disputes. */
export const adminDisputeSchema = z.object({
  id: z.string(),
  status: z.string().describe("The gateway's status: `open`, `accepted`, `won`, `lost`, ..."),
  kind: z.string().describe('`chargeback`, `retrieval`, `pre_arbitration`.'),
  reason: z.string().describe("The card network's reason, e.g. `fraud`, `product_not_received`."),
  amount: moneySchema,
  transactionId: z.string(),
  payment: z
    .object({ id: z.string(), orderNumber: z.number().int() })
    .nullable()
    .describe("Null when the transaction is not one of the shop's payments."),
  customer: z.object({ email: z.string() }).nullable(),
  updatedAt: z.string().describe('When the gateway last reported on it.'),
});
export type AdminDispute = z.infer<typeof adminDisputeSchema>;

function disputesQuery(db: Db) {
  return db
    .selectFrom('disputes as d')
    .leftJoin('payments as p', 'p.transaction_id', 'd.transaction_id')
    .leftJoin('orders as o', 'o.id', 'p.order_id')
    .leftJoin('accounts as a', 'a.id', 'o.owner_account_id')
    .selectAll('d')
    .select(['p.id as payment_id', 'o.number as order_number', 'a.email as customer_email']);
}

type DisputeListRow = Awaited<ReturnType<ReturnType<typeof disputesQuery>['executeTakeFirstOrThrow']>>;

function toAdminDispute(row: DisputeListRow): AdminDispute {
  return {
    id: row.id,
    status: row.status,
    kind: row.kind,
    reason: row.reason,
    amount: { amount: row.amount, currency: row.currency },
    transactionId: row.transaction_id,
    payment: row.payment_id === null || row.order_number === null ? null : { id: row.payment_id, orderNumber: row.order_number },
    customer: row.customer_email === null ? null : { email: row.customer_email },
    updatedAt: row.notified_at,
  };
}

/** A page of disputes, last reported first (index `disputes_notified`). */
export async function listDisputes(
  db: Db,
  filter: { status?: string; after?: PageCursor; limit: number },
): Promise<{ disputes: AdminDispute[]; nextCursor: string | null }> {
  let query = disputesQuery(db);
  if (filter.status !== undefined) query = query.where('d.status', '=', filter.status);
  const rows = await newestFirstAfter(query, { at: 'd.notified_at', id: 'd.id' }, filter.after, filter.limit).execute();
  const { page, nextCursor } = pageOf(rows, filter.limit, (row) => ({ at: row.notified_at, id: row.id }));
  return {
    disputes: page.map(toAdminDispute),
    nextCursor,
  };
}

/** The disputes against one payment, last reported first. */
export async function disputesOfPayment(db: Db, paymentId: string): Promise<AdminDispute[]> {
  const rows = await disputesQuery(db).where('p.id', '=', paymentId).orderBy('d.notified_at', 'desc').execute();
  return rows.map(toAdminDispute);
}

/**
 * Keeps the shop's copy of a dispute as the gateway reported it `at` (a webhook's timestamp, or the gateway's own
 * change time after an admin's action): an older report never overwrites a newer one.
 */
export async function recordDispute(
  db: Db,
  dispute: { id: string; status: string; kind: string; reason: string; amount: string; currency: string; transactionId: string },
  at: string,
): Promise<void> {
  const money = fromDecimalString(dispute.amount, dispute.currency);
  const state = {
    status: dispute.status,
    kind: dispute.kind,
    reason: dispute.reason,
    amount: money.amount,
    currency: money.currency,
    notified_at: at,
  };
  await db
    .insertInto('disputes')
    .values({ id: dispute.id, transaction_id: dispute.transactionId, ...state })
    .onConflict((oc) => oc.column('id').doUpdateSet(state).where('disputes.notified_at', '<=', at))
    .execute();
}

/** One dispute as the shop last recorded it; undefined when it has none. */
export async function findAdminDispute(db: Db, id: string): Promise<AdminDispute | undefined> {
  const row = await disputesQuery(db).where('d.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toAdminDispute(row);
}
