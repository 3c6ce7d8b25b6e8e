import { sql } from 'kysely';
import { z } from 'zod';
import { normalizeEmail } from '../accounts/account.ts';
import { isPostgres } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import { moneySchema } from '../money.ts';
import { declineSchema, paymentStatusSchema, toDecline } from '../payments/payment.ts';
import { SETTLEMENT_STATUSES, settlementStatusSchema } from '../webhooks/notifications.ts';
import type { PaymentRow } from '../db/schema.ts';

/** A payment as the merchant sees it: with its order and, for an account's order, the customer's email. */
export const adminPaymentSchema = z.object({
  id: z.string(),
  status: paymentStatusSchema,
  amount: moneySchema,
  createdAt: z.string(),
  updatedAt: z.string(),
  order: z.object({ id: z.string(), number: z.number().int() }),
  customer: z.object({ email: z.string() }).nullable().describe("Null for a guest's order."),
  paymentMethodType: z
    .string()
    .nullable()
    .describe("The gateway's paymentInstrumentType (`credit_card`, ...); null until it answered."),
  card: z.object({ brand: z.string(), lastFour: z.string() }).nullable(),
  transactionId: z.string().nullable(),
  decline: declineSchema.nullable(),
  settlementStatus: z
    .enum(SETTLEMENT_STATUSES)
    .nullable()
    .describe(
      "What the gateway's webhooks last reported of the money's movement; null: not reported yet (a charge is submitted for settlement at once).",
    ),
  threeDSecure: z
    .object({ status: z.string(), liabilityShifted: z.boolean(), liabilityShiftPossible: z.boolean() })
    .nullable()
    .describe('The 3-D Secure outcome the transaction recorded; null without 3-D Secure (or before the gateway answered).'),
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;

/** The list's orders: by date or by amount, each way; ties broken by date then id, so the order is total. */
export const PAYMENT_SORTS = ['newest', 'oldest', 'amount_desc', 'amount_asc'] as const;
export type PaymentSort = (typeof PAYMENT_SORTS)[number];

/** Where a page of the list ends: the last payment's sort key (amount, created_at, id). */
export interface PaymentsCursor {
  amount: number;
  createdAt: string;
  id: string;
}

export function encodeCursor(cursor: PaymentsCursor): string {
  return Buffer.from(JSON.stringify([cursor.amount, cursor.createdAt, cursor.id])).toString('base64url');
}

const cursorShape = z.tuple([z.number().int(), z.string(), z.string()]);

/** The cursor a client sends back, or null when it is not one we made. */
export function decodeCursor(text: string): PaymentsCursor | null {
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? { amount: parsed.data[0], createdAt: parsed.data[1], id: parsed.data[2] } : null;
  } catch {
    return null;
  }
}

export interface PaymentsFilter {
  status?: z.infer<typeof paymentStatusSchema>;
  /** created_at bounds, ISO 8601: `from` inclusive, `to` exclusive. */
  from?: string;
  to?: string;
  /** Minor units, inclusive. */
  minAmount?: number;
  maxAmount?: number;
  customerEmail?: string;
  /** The order's number as the shop shows it. */
  orderNumber?: number;
  cardLastFour?: string;
  paymentMethodType?: string;
  /** Newest first unless told. */
  sort?: PaymentSort;
  after?: PaymentsCursor;
  limit: number;
}

function baseQuery(db: Db) {
  return db
    .selectFrom('payments as p')
    .innerJoin('orders as o', 'o.id', 'p.order_id')
    .leftJoin('accounts as a', 'a.id', 'o.owner_account_id')
    .selectAll('p')
    .select(['o.number as order_number', 'a.email as customer_email']);
}

type ListedRow = PaymentRow & { order_number: number; customer_email: string | null };

/** A stored settlement status, or null for none or one the list no longer has (made once, as toDecline's). */
const storedSettlementStatus = settlementStatusSchema.nullable().catch(null);

function toAdminPayment(row: ListedRow): AdminPayment {
  const status = paymentStatusSchema.parse(row.status);
  return {
    id: row.id,
    status,
    amount: { amount: row.amount, currency: row.currency },
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    order: { id: row.order_id, number: row.order_number },
    customer: row.customer_email === null ? null : { email: row.customer_email },
    paymentMethodType: row.payment_method_type,
    card: row.card_brand === null || row.card_last_four === null ? null : { brand: row.card_brand, lastFour: row.card_last_four },
    transactionId: row.transaction_id,
    decline: status === 'declined' ? toDecline(row) : null,
    settlementStatus: storedSettlementStatus.parse(row.settlement_status),
    threeDSecure:
      row.three_d_secure_status === null
        ? null
        : {
            status: row.three_d_secure_status,
            liabilityShifted: row.liability_shifted === 1,
            liabilityShiftPossible: row.liability_shift_possible === 1,
          },
  };
}

/** The query behind a page of the list (exported so a test can read the database's plan for it). */
export function paymentsPageQuery(db: Db, filter: PaymentsFilter) {
  let query = baseQuery(db);
  if (filter.status !== undefined) query = query.where('p.status', '=', filter.status);
  if (filter.from !== undefined) query = query.where('p.created_at', '>=', filter.from);
  if (filter.to !== undefined) query = query.where('p.created_at', '<', filter.to);
  const sort = filter.sort ?? 'newest';
  const byAmount = sort === 'amount_desc' || sort === 'amount_asc';
  // In date order SQLite would range over the amount index and sort the whole range (its planner does not weigh that
  // the limit ends a walk early): the unary plus keeps the amount off that index, so it walks payments_created_amount
  // in the page's order and tests the amount there (migration 0018). PostgreSQL's planner weighs the limit itself.
  const amount = !byAmount && !isPostgres(db) ? sql<number>`+${sql.ref('p.amount')}` : sql.ref<number>('p.amount');
  if (filter.minAmount !== undefined) query = query.where(amount, '>=', filter.minAmount);
  if (filter.maxAmount !== undefined) query = query.where(amount, '<=', filter.maxAmount);
  if (filter.customerEmail !== undefined) query = query.where('a.email', '=', normalizeEmail(filter.customerEmail));
  if (filter.orderNumber !== undefined) query = query.where('o.number', '=', filter.orderNumber);
  if (filter.cardLastFour !== undefined) query = query.where('p.card_last_four', '=', filter.cardLastFour);
  if (filter.paymentMethodType !== undefined) query = query.where('p.payment_method_type', '=', filter.paymentMethodType);
  const direction = sort === 'newest' || sort === 'amount_desc' ? 'desc' : 'asc';
  const past = direction === 'desc' ? '<' : '>';
  const after = filter.after;
  if (after !== undefined) {
    // Keyset pagination: rows strictly past the last one shown, in the sort's order (an index range, not an offset).
    query = query.where((eb) => {
      const byDate = eb.or([
        eb('p.created_at', past, after.createdAt),
        eb.and([eb('p.created_at', '=', after.createdAt), eb('p.id', past, after.id)]),
      ]);
      return byAmount ? eb.or([eb('p.amount', past, after.amount), eb.and([eb('p.amount', '=', after.amount), byDate])]) : byDate;
    });
  }
  if (byAmount) query = query.orderBy('p.amount', direction);
  return query
    .orderBy('p.created_at', direction)
    .orderBy('p.id', direction)
    .limit(filter.limit + 1);
}

/**
 * One page of payments in the sort's order, filtered in the database: the 0005_admin indexes ((status, created_at, id),
 * (card_last_four, created_at, id)), 0009_dashboard's (amount, created_at, id) and 0018's (created_at, id, amount) serve the
 * orders and the filters, and the page continues after a cursor instead of an offset, so page 1000 costs what page 1 does.
 */
export async function listPayments(
  db: Db,
  filter: PaymentsFilter,
): Promise<{ payments: AdminPayment[]; nextCursor: string | null }> {
  const rows = await paymentsPageQuery(db, filter).execute();
  const page = rows.slice(0, filter.limit);
  const last = page.at(-1);
  const nextCursor =
    rows.length > filter.limit && last !== undefined
      ? encodeCursor({ amount: last.amount, createdAt: last.created_at, id: last.id })
      : null;
  return { payments: page.map(toAdminPayment), nextCursor };
}

export async function findAdminPayment(db: Db, id: string): Promise<AdminPayment | undefined> {
  const row = await baseQuery(db).where('p.id', '=', id).executeTakeFirst();
  return row === undefined ? undefined : toAdminPayment(row);
}

/** Every attempt to pay the payment's order, oldest first. */
export async function attemptsOfOrder(db: Db, orderId: string): Promise<AdminPayment[]> {
  const rows = await baseQuery(db).where('p.order_id', '=', orderId).orderBy('p.created_at').orderBy('p.id').execute();
  return rows.map(toAdminPayment);
}
