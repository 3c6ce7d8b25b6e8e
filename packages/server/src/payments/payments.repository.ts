import type { ExpressionBuilder, QueryCreator } from 'kysely';
import { isPostgres } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import { prepared } from '../db/prepared.ts';
import { transaction } from '../db/sqlite-at-once.ts';
import type { Database, PaymentRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';
import type { Money } from '../money.ts';
import type { OrderStatus } from '../orders/order.ts';
import { canTransitionOrder, orderStatusSchema } from '../orders/order.ts';
import { findOrderAttemptsOf, updateOrderStatus } from '../orders/orders.repository.ts';
import type { OrderWithLines } from '../orders/orders.repository.ts';
import { toldSettlement } from '../webhooks/notifications.ts';
import { assertPaymentTransition, LIVE_PAYMENT_STATUSES } from './payment.ts';
import type { AttemptOutcome } from './payment.ts';

// The payment path's statements, compiled once (db/prepared.ts).
const insertAttempt = prepared((db, p: PaymentRow) =>
  db
    .insertInto('payments')
    .values(p)
    .onConflict((oc) => oc.doNothing()),
);
/** The columns an answer writes: a pending attempt has none of them yet, so each answer sets all (nulls where not its). */
type Answer = Pick<
  PaymentRow,
  | 'id'
  | 'status'
  | 'transaction_id'
  | 'payment_method_type'
  | 'card_brand'
  | 'card_last_four'
  | 'decline_reason'
  | 'processor_response_code'
  | 'processor_response_text'
  | 'gateway_rejection_reason'
  | 'three_d_secure_status'
  | 'liability_shifted'
  | 'liability_shift_possible'
  | 'velocity_subjects'
  | 'updated_at'
>;
/**
 * An answer's statement returns the attempt and how many attempts its order has then (`order_attempts`): the payment
 * request's answer lists them, and knows from it whether the ones it read at its start are all (pay-order.ts).
 */
const recordAnswer = prepared((db, { id, ...answer }: Answer) =>
  db
    .updateTable('payments')
    .set(answer)
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .returning(orderAttemptCount),
);
type ChargeAnswer = Answer & { transaction_id: string };
/** A charge's answer, with the settlement the gateway may have told of its transaction already (toldSettlement). */
function answerCharge(qb: QueryCreator<Database>, { id, ...answer }: ChargeAnswer) {
  return qb
    .updateTable('payments')
    .set((eb) => ({ ...answer, ...toldSettlement(eb, answer.transaction_id) }))
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .returningAll()
    .returning(orderAttemptCount);
}
const recordCharge = prepared((db, charge: ChargeAnswer) => answerCharge(db, charge));

/**
 * On PostgreSQL, a charge's answer and its order's move to paid in one statement (a data-modifying WITH): one round
 * trip and one statement fewer in the outcome's transaction, and the order's row locked before the velocity rules'
 * count of the outcome, whose row (the card's BIN) every approval shares, is held to the commit one round trip less.
 * `order_paid`: whether this statement moved the order (a pending one; an order cannot change while it has a pending
 * attempt, so it is, unless the answer was recorded already).
 */
const recordChargeAndPayOrder = prepared((db, charge: ChargeAnswer) =>
  db
    .with('answered', (qb) => answerCharge(qb, charge))
    .with('paid', (qb) =>
      qb
        .updateTable('orders')
        .set({ status: 'paid', updated_at: charge.updated_at })
        .where('id', '=', (eb) => eb.selectFrom('answered').select('order_id'))
        .where('status', '=', 'pending')
        .returning('orders.id'),
    )
    .selectFrom('answered')
    .selectAll()
    .select((eb) => eb.exists(eb.selectFrom('paid').select('id')).as('order_paid')),
);

function orderAttemptCount(eb: ExpressionBuilder<Database, 'payments'>) {
  return eb
    .selectFrom('payments as attempt')
    .select((inner) => inner.fn.countAll().as('count'))
    .whereRef('attempt.order_id', '=', 'payments.order_id')
    .$asScalar()
    .as('order_attempts');
}

/**
 * Records a pending attempt, or returns undefined when the order already has a pending or successful one:
 * the partial unique index decides, so two concurrent attempts cannot both be inserted.
 */
export async function insertPendingPayment(
  db: Db,
  input: {
    orderId: string;
    amount: Money;
    idempotencyRef: string | null;
    nonce: string;
    deviceData: string | null;
    merchantAccountId: string | null;
    /** "Save card": the gateway customer to save the card for; unset or null, nothing is saved. */
    vaultCustomerId?: string | null;
    /** Send the sale with `threeDSecure.required` (the amount is above the merchant's threshold). */
    threeDSecureRequired?: boolean;
    /** What the velocity rules count its outcome against (velocity/guard.ts outcomeSubjects); kept until it is recorded. */
    velocitySubjects?: string | null;
  },
): Promise<PaymentRow | undefined> {
  const now = nowIso();
  const row: PaymentRow = {
    id: newId('pay'),
    order_id: input.orderId,
    status: 'pending',
    amount: input.amount.amount,
    currency: input.amount.currency,
    idempotency_ref: input.idempotencyRef,
    nonce: input.nonce,
    device_data: input.deviceData,
    merchant_account_id: input.merchantAccountId,
    vault_customer_id: input.vaultCustomerId ?? null,
    velocity_subjects: input.velocitySubjects ?? null,
    transaction_id: null,
    card_brand: null,
    card_last_four: null,
    decline_reason: null,
    processor_response_code: null,
    processor_response_text: null,
    gateway_rejection_reason: null,
    payment_method_type: null,
    settlement_status: null,
    settlement_status_at: null,
    three_d_secure_required: input.threeDSecureRequired === true ? 1 : 0,
    three_d_secure_status: null,
    liability_shifted: null,
    liability_shift_possible: null,
    created_at: now,
    updated_at: now,
  };
  return (await insertAttempt.affected(db, row)) === 1 ? row : undefined;
}

/**
 * What a payment request needs of an order's attempts, in one read (none when the order had none as it was read): all
 * of them (oldest first, for its answer), the attempt its Idempotency-Key started (a key starts at most one), and the
 * order's live (pending or succeeded) attempt.
 */
export async function findAttempts(
  db: Db,
  order: OrderWithLines,
  idempotencyRef: string,
): Promise<{ all: PaymentRow[]; own: PaymentRow | undefined; live: PaymentRow | undefined }> {
  const all = await findOrderAttemptsOf(db, order);
  return {
    all,
    own: all.find((row) => row.idempotency_ref === idempotencyRef),
    live: all.find((row) => (LIVE_PAYMENT_STATUSES as readonly string[]).includes(row.status)),
  };
}

/**
 * Takes a pending attempt for one request: a compare-and-set on `updated_at`, so of two requests that would send it
 * again at once, one wins and the other is told a payment is in progress. Returns the attempt as leased.
 */
export async function leaseAttempt(db: Db, payment: PaymentRow, now: Date): Promise<PaymentRow | undefined> {
  const updatedAt = nowIso(now);
  const result = await db
    .updateTable('payments')
    .set({ updated_at: updatedAt })
    .where('id', '=', payment.id)
    .where('status', '=', 'pending')
    .where('updated_at', '=', payment.updated_at)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ...payment, updated_at: updatedAt } : undefined;
}

/** Pending attempts nobody has touched since `before`: their request was lost (see config.ts staleAttemptMsFor). */
export function findStaleAttempts(db: Db, before: Date, limit = 50): Promise<PaymentRow[]> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('status', '=', 'pending')
    .where('updated_at', '<', nowIso(before))
    .orderBy('updated_at')
    .limit(limit)
    .execute();
}

export function findLivePayment(db: Db, orderId: string): Promise<PaymentRow | undefined> {
  return db
    .selectFrom('payments')
    .selectAll()
    .where('order_id', '=', orderId)
    .where('status', 'in', [...LIVE_PAYMENT_STATUSES])
    .executeTakeFirst();
}

/** An attempt's recorded outcome, and its order's status when the outcome's transaction knows it. */
export interface RecordedOutcome {
  payment: PaymentRow;
  /**
   * The order's status after the outcome, known without reading the order again: `paid` when this outcome paid it,
   * `pending` when it declined (an order cannot change while it has a pending attempt: one pending-or-succeeded attempt
   * per order), and read when another request had recorded the attempt's outcome first.
   */
  orderStatus: OrderStatus;
  /** How many attempts the order had when this outcome was recorded; null when another request had recorded it. */
  orderAttempts: number | null;
}

/**
 * Writes the gateway's answer to a pending attempt (a charge with the settlement the gateway already told of it), and
 * on success marks the order paid, in one transaction.
 * Conditional on the attempt still being pending, so a late duplicate cannot overwrite a recorded outcome. `alongside`
 * writes more in the same transaction (the velocity rules' count of the outcome), once this outcome is recorded.
 */
export async function recordOutcome(
  db: Db,
  payment: PaymentRow,
  outcome: AttemptOutcome,
  alongside?: (trx: Db, saved: PaymentRow) => Promise<void>,
): Promise<RecordedOutcome> {
  const status = outcome.kind === 'succeeded' ? 'succeeded' : 'declined';
  assertPaymentTransition('pending', status);
  const threeDSecure = outcome.threeDSecure ?? null;
  const answer: Answer = {
    id: payment.id,
    status,
    transaction_id: outcome.transactionId ?? null,
    payment_method_type: outcome.paymentMethodType ?? null,
    card_brand: outcome.kind === 'succeeded' ? outcome.card.brand : null,
    card_last_four: outcome.kind === 'succeeded' ? outcome.card.lastFour : null,
    decline_reason: outcome.kind === 'declined' ? outcome.reason : null,
    processor_response_code: (outcome.kind === 'declined' ? outcome.processorResponseCode : null) ?? null,
    processor_response_text: (outcome.kind === 'declined' ? outcome.processorResponseText : null) ?? null,
    gateway_rejection_reason: (outcome.kind === 'declined' ? outcome.gatewayRejectionReason : null) ?? null,
    three_d_secure_status: threeDSecure?.status ?? null,
    liability_shifted: threeDSecure === null ? null : Number(threeDSecure.liabilityShifted),
    liability_shift_possible: threeDSecure === null ? null : Number(threeDSecure.liabilityShiftPossible),
    // Counted with the outcome (`alongside`, from the attempt as it was pending): no longer needed, so not kept.
    velocity_subjects: null,
    updated_at: nowIso(),
  };
  return transaction(db, async (trx) => {
    const { answered, orderPaid } = await writeAnswer(trx, answer);
    if (answered === undefined) {
      // Recorded already (a late duplicate): that outcome stands, and the order is as it left it.
      const saved = await trx.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
      return { payment: saved, orderStatus: await orderStatusOf(trx, payment.order_id), orderAttempts: null };
    }
    const { order_attempts, ...recorded } = answered;
    // PostgreSQL counts in a bigint, which pg gives as a string.
    const orderAttempts = Number(order_attempts);
    await alongside?.(trx, recorded);
    if (recorded.status !== 'succeeded') return { payment: recorded, orderStatus: 'pending', orderAttempts };
    const paid = orderPaid ?? (await updateOrderStatus(trx, payment.order_id, 'pending', 'paid'));
    const orderStatus = paid ? 'paid' : await orderStatusOf(trx, payment.order_id);
    return { payment: recorded, orderStatus, orderAttempts };
  });
}

/**
 * The answer's statement: the attempt as recorded (undefined if its answer was recorded already) with its order's
 * attempt count, and, when the statement also moved the order to paid (a charge, on PostgreSQL), whether it did.
 */
async function writeAnswer(
  trx: Db,
  answer: Answer,
): Promise<{ answered: (PaymentRow & { order_attempts: unknown }) | undefined; orderPaid: boolean | null }> {
  const { transaction_id: transactionId } = answer;
  if (answer.status !== 'succeeded' || transactionId === null)
    return { answered: await recordAnswer.takeFirst(trx, answer), orderPaid: null };
  const charge = { ...answer, transaction_id: transactionId };
  if (!isPostgres(trx)) return { answered: await recordCharge.takeFirst(trx, charge), orderPaid: null };
  if (!canTransitionOrder('pending', 'paid')) throw new Error('order cannot go from pending to paid');
  const row = await recordChargeAndPayOrder.takeFirst(trx, charge);
  if (row === undefined) return { answered: undefined, orderPaid: null };
  const { order_paid, ...answered } = row;
  return { answered, orderPaid: order_paid === true };
}

async function orderStatusOf(trx: Db, orderId: string): Promise<OrderStatus> {
  const order = await trx.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
  return orderStatusSchema.parse(order.status);
}
