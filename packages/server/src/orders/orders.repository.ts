import { sql } from 'kysely';
import { isPostgres } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import type { OrderItemRow, OrderRow, PaymentRow } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { newId, nowIso } from '../ids.ts';
import type { Money } from '../money.ts';
import { isCharged, paymentStatusSchema, toPaymentSummary } from '../payments/payment.ts';
import { canTransitionOrder, orderStatusSchema } from './order.ts';
import type { Order, OrderItem, OrderStatus, Owner } from './order.ts';

// Every payment request reads its order this way (with its lines, and its attempts): compiled once (db/prepared.ts).
const orderById = prepared((db, p: { id: string }) => db.selectFrom('orders').selectAll().where('id', '=', p.id));
const orderLines = prepared((db, p: { orderId: string }) =>
  db.selectFrom('order_items').selectAll().where('order_id', '=', p.orderId).orderBy('position'),
);
/**
 * The order's row on each of its lines (one statement instead of two: the lines never change once it is made), and
 * whether it has any payment attempt (an index probe: an order paid for the first time needs no read of its attempts).
 * The probe is by the id given, not by `orders.id`: correlated, PostgreSQL's plan of it made while the tables were
 * small (a connection's cached plan of a named statement) read every payment at every run, a hashed subplan (issue 10,
 * pg7: 166 pages a run after 4,500 payments); uncorrelated it is one index probe whatever the plan was made on.
 */
const orderByIdWithLines = prepared((db, p: { id: string }) =>
  db
    .selectFrom('orders')
    .leftJoin('order_items', 'order_items.order_id', 'orders.id')
    .selectAll('orders')
    .select([
      'order_items.position as line_position',
      'order_items.product_id as line_product_id',
      'order_items.name as line_name',
      'order_items.quantity as line_quantity',
      'order_items.unit_amount as line_unit_amount',
      'order_items.currency as line_currency',
    ])
    .select((eb) =>
      eb.exists(eb.selectFrom('payments').select('payments.id').where('payments.order_id', '=', p.id)).as('attempted'),
    )
    .where('orders.id', '=', p.id)
    .orderBy('order_items.position'),
);
// An order's attempts oldest first (compareAttempts). Two can be made in the same millisecond (another key's attempt
// answered just before this one was made); an order has at most one live attempt, so the earlier was answered before
// the later could be made: of two made in the same millisecond, the one answered first is the older. The id (random)
// settles only what is still tied.
const orderAttempts = prepared((db, p: { orderId: string }) =>
  db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', p.orderId)
    .orderBy('created_at')
    .orderBy('updated_at')
    .orderBy('id'),
);

/** The order of an order's attempts as the database reads them (orderAttempts), for attempts put together in memory. */
export function compareAttempts(a: PaymentRow, b: PaymentRow): number {
  return compareText(a.created_at, b.created_at) || compareText(a.updated_at, b.updated_at) || compareText(a.id, b.id);
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
const moveOrder = prepared((db, p: { id: string; from: OrderStatus; to: OrderStatus; now: string }) =>
  db.updateTable('orders').set({ status: p.to, updated_at: p.now }).where('id', '=', p.id).where('status', '=', p.from),
);

export async function insertOrder(db: Db, input: { owner: Owner; items: OrderItem[]; total: Money }): Promise<Order> {
  const now = nowIso();
  const row: Omit<OrderRow, 'number'> = {
    id: newId('ord'),
    status: 'pending',
    total_amount: input.total.amount,
    currency: input.total.currency,
    // A signed-in shopper's order belongs to the account; a guest's to the guest session.
    owner_account_id: input.owner.accountId,
    owner_session_id: input.owner.accountId === null ? input.owner.sessionId : null,
    created_at: now,
    updated_at: now,
  };
  const lines: OrderItemRow[] = input.items.map((item, position) => ({
    order_id: row.id,
    position,
    product_id: item.productId,
    name: item.name,
    quantity: item.quantity,
    unit_amount: item.unitPrice.amount,
    currency: item.unitPrice.currency,
  }));
  const number = isPostgres(db)
    ? // One statement, its number from the sequence (migration 0017): no lock that other orders wait for.
      (
        await db
          .with('placed', (qb) =>
            qb
              .insertInto('orders')
              .values({ ...row, number: sql<number>`nextval('order_numbers')` })
              .returning('number'),
          )
          .with('lines', (qb) => qb.insertInto('order_items').values(lines))
          .selectFrom('placed')
          .select('number')
          .executeTakeFirstOrThrow()
      ).number
    : await db.transaction().execute(async (trx) => {
        // SQLite: taken in the order's transaction (its one writer serializes orders anyway), so a rolled-back order
        // gives its number back.
        const counter = await trx
          .updateTable('counters')
          .set((eb) => ({ value: eb('value', '+', 1) }))
          .where('name', '=', 'order_number')
          .returning('value')
          .executeTakeFirstOrThrow();
        await trx
          .insertInto('orders')
          .values({ ...row, number: counter.value })
          .execute();
        await trx.insertInto('order_items').values(lines).execute();
        return counter.value;
      });
  return { id: row.id, number, status: 'pending', items: input.items, total: input.total, createdAt: now, payments: [] };
}

/** The last order number taken: the next order's comes after it (on PostgreSQL possibly after a gap, migration 0017). */
export async function lastOrderNumber(db: Db): Promise<number> {
  if (isPostgres(db)) {
    const { rows } = await sql<{ last_value: string | number; is_called: boolean }>`
      select last_value, is_called from order_numbers`.execute(db);
    const sequence = rows[0];
    if (sequence === undefined) throw new Error('no order_numbers sequence');
    return Number(sequence.last_value) - (sequence.is_called ? 0 : 1);
  }
  const counter = await db.selectFrom('counters').select('value').where('name', '=', 'order_number').executeTakeFirstOrThrow();
  return counter.value;
}

/** Makes the next order's number come after `last`: for orders written straight to the database (seeds). */
export async function takeOrderNumbersUpTo(db: Db, last: number): Promise<void> {
  if (isPostgres(db)) await sql`select setval('order_numbers', ${last})`.execute(db);
  else await db.updateTable('counters').set({ value: last }).where('name', '=', 'order_number').execute();
}

/** An order's row and its lines, oldest first. */
export interface OrderWithLines {
  row: OrderRow;
  lines: OrderItemRow[];
  /** Whether it had a payment attempt when read: when not, its attempts need no reading (findOrderAttemptsOf). */
  attempted: boolean;
}

function isOwnedBy(row: OrderRow, owner: Owner): boolean {
  return row.owner_account_id !== null ? row.owner_account_id === owner.accountId : row.owner_session_id === owner.sessionId;
}

/** The order if `owner` may see it; otherwise undefined, whether it exists or not (no existence oracle). */
export async function findOwnedOrderRow(db: Db, orderId: string, owner: Owner): Promise<OrderRow | undefined> {
  const row = await orderById.takeFirst(db, { id: orderId });
  return row !== undefined && isOwnedBy(row, owner) ? row : undefined;
}

/** findOwnedOrderRow, with the order's lines read in the same statement. */
export async function findOwnedOrderWithLines(db: Db, orderId: string, owner: Owner): Promise<OrderWithLines | undefined> {
  const { rows } = await orderByIdWithLines.execute(db, { id: orderId });
  const first = rows[0];
  if (first === undefined) return undefined;
  const { line_position, line_product_id, line_name, line_quantity, line_unit_amount, line_currency, attempted, ...row } = first;
  if (!isOwnedBy(row, owner)) return undefined;
  const lines: OrderItemRow[] = [];
  for (const line of rows) {
    const { line_position: position, line_product_id: product_id, line_name: name } = line;
    const { line_quantity: quantity, line_unit_amount: unit_amount, line_currency: currency } = line;
    // A left join: an order without lines has one row, of nulls.
    if (position === null || product_id === null || name === null) continue;
    if (quantity === null || unit_amount === null || currency === null) continue;
    lines.push({ order_id: row.id, position, product_id, name, quantity, unit_amount, currency });
  }
  // SQLite answers 0 or 1, PostgreSQL a boolean.
  return { row, lines, attempted: Boolean(attempted) };
}

/** An order's payment attempts, oldest first. */
export async function findOrderAttempts(db: Db, orderId: string): Promise<PaymentRow[]> {
  return (await orderAttempts.execute(db, { orderId })).rows;
}

/** The attempts of an order read by findOwnedOrderWithLines, as they were then: none without a read if it had none. */
export async function findOrderAttemptsOf(db: Db, order: OrderWithLines): Promise<PaymentRow[]> {
  return order.attempted ? findOrderAttempts(db, order.row.id) : [];
}

/** An order row read already, with its lines and payment attempts (read now). */
export async function loadOrder(db: Db, row: OrderRow): Promise<Order> {
  const [{ rows: lines }, attempts] = await Promise.all([
    orderLines.execute(db, { orderId: row.id }),
    findOrderAttempts(db, row.id),
  ]);
  return toOrder({ row, lines }, attempts);
}

/** The order as the API shows it, from its row, its lines and its attempts (oldest first). */
export function toOrder({ row, lines }: Pick<OrderWithLines, 'row' | 'lines'>, attempts: readonly PaymentRow[]): Order {
  // The attempt that says most about the order: the one that charged, else the latest.
  const payment = attempts.find((r) => isCharged(paymentStatusSchema.parse(r.status))) ?? attempts.at(-1);
  return {
    id: row.id,
    number: row.number,
    status: orderStatusSchema.parse(row.status),
    items: lines.map(toOrderItem),
    total: { amount: row.total_amount, currency: row.currency },
    createdAt: row.created_at,
    ...(payment !== undefined ? { payment: toPaymentSummary(payment) } : {}),
    payments: attempts.map(toPaymentSummary),
  };
}

export async function findOwnedOrder(db: Db, orderId: string, owner: Owner): Promise<Order | undefined> {
  const order = await findOwnedOrderWithLines(db, orderId, owner);
  return order === undefined ? undefined : toOrder(order, await findOrderAttemptsOf(db, order));
}

/** How many orders the order history shows: the newest; older ones stay reachable by their receipt links. */
export const ORDER_HISTORY_LIMIT = 50;

/** A signed-in shopper's orders, newest first, each with its lines and payment attempts. */
export async function listAccountOrders(db: Db, accountId: string): Promise<Order[]> {
  const rows = await db
    .selectFrom('orders')
    .selectAll()
    .where('owner_account_id', '=', accountId)
    .orderBy('created_at', 'desc')
    .orderBy('number', 'desc')
    .limit(ORDER_HISTORY_LIMIT)
    .execute();
  return Promise.all(rows.map((row) => loadOrder(db, row)));
}

function toOrderItem(row: OrderItemRow): OrderItem {
  const unitPrice = { amount: row.unit_amount, currency: row.currency };
  return {
    productId: row.product_id,
    name: row.name,
    quantity: row.quantity,
    unitPrice,
    total: { amount: row.unit_amount * row.quantity, currency: row.currency },
  };
}

/** Moves the order along an allowed transition, only if it is still in `from` (a concurrent move wins once). */
export async function updateOrderStatus(db: Db, orderId: string, from: OrderStatus, to: OrderStatus): Promise<boolean> {
  if (!canTransitionOrder(from, to)) throw new Error(`order cannot go from ${from} to ${to}`);
  return (await moveOrder.affected(db, { id: orderId, from, to, now: nowIso() })) === 1;
}

/** The orders of a guest session, newest first: what the shopper is asked about before keeping them at sign-in. */
export async function listGuestOrders(
  db: Db,
  sessionId: string,
): Promise<Array<{ number: number; total: Money; createdAt: string }>> {
  const rows = await db
    .selectFrom('orders')
    .select(['number', 'total_amount', 'currency', 'created_at'])
    .where('owner_session_id', '=', sessionId)
    .where('owner_account_id', 'is', null)
    .orderBy('created_at', 'desc')
    .execute();
  return rows.map((row) => ({
    number: row.number,
    total: { amount: row.total_amount, currency: row.currency },
    createdAt: row.created_at,
  }));
}

/** A guest who signs in and says so keeps the orders made in the guest session. */
export async function adoptGuestOrders(db: Db, sessionId: string, accountId: string): Promise<void> {
  await db
    .updateTable('orders')
    .set({ owner_account_id: accountId, owner_session_id: null })
    .where('owner_session_id', '=', sessionId)
    .where('owner_account_id', 'is', null)
    .execute();
}
