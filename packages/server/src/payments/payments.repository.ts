import { sql } from 'kysely';
import type { ExpressionBuilder, QueryCreator } from 'kysely';
import { isPostgres } from '../db/connect.ts';
import type { Db } from '../db/connect.ts';
import { byShape, prepared } from '../db/prepared.ts';
import { transaction } from '../db/sqlite-at-once.ts';
import type { Database, PaymentRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';
import type { Money } from '../money.ts';
import type { OrderStatus } from '../orders/order.ts';
import { canTransitionOrder, orderStatusSchema } from '../orders/order.ts';
import { findOrderAttemptsOf, updateOrderStatus } from '../orders/orders.repository.ts';
import type { OrderWithLines } from '../orders/orders.repository.ts';
import { countedWith, recordCounts } from '../velocity/velocity.ts';
import type { Counts } from '../velocity/velocity.ts';
import { toldSettlement } from '../webhooks/notifications.ts';
import { assertPaymentTransition, LIVE_PAYMENT_STATUSES } from './payment.ts';
import type { AttemptOutcome } from './payment.ts';
import { saveAnswer } from './idempotency.repository.ts';
import type { KeyAnswer } from './idempotency.repository.ts';

// The payment path's statements, compiled once (db/prepared.ts).
const insertAttempt = prepared((db, p: PaymentRow) =>
  db
    .insertInto('payments')
    .values(p)
    .onConflict((oc) => oc.doNothing()),
);
/** The columns an answer writes: a pending attempt has none of them yet, so each answer sets all (nulls where not its). */
const ANSWER_COLUMNS = [
  'status',
  'transaction_id',
  'payment_method_type',
  'card_brand',
  'card_last_four',
  'decline_reason',
  'processor_response_code',
  'processor_response_text',
  'gateway_rejection_reason',
  'three_d_secure_status',
  'liability_shifted',
  'liability_shift_possible',
  'velocity_subjects',
  'updated_at',
] as const satisfies ReadonlyArray<keyof PaymentRow>;
type AnswerColumns = Pick<PaymentRow, (typeof ANSWER_COLUMNS)[number]>;
type Answer = AnswerColumns & Pick<PaymentRow, 'id'>;
/** An answer's columns, picked by name: its statement's values may hold more (the velocity counts of it, countedWith). */
function columnsOf(answer: Answer): AnswerColumns {
  const columns: Partial<Record<keyof AnswerColumns, unknown>> = {};
  for (const column of ANSWER_COLUMNS) columns[column] = answer[column];
  return columns as AnswerColumns;
}

/**
 * An answer's attempt must still be pending (a compare-and-set), found by its id. The status is compared as an
 * expression no index holds: PostgreSQL's plan of an answer made while the table was small (a connection's cached plan
 * of a named statement) took both conditions to `payments_status_created` (status, created_at, id) and read every
 * pending entry of it, those of attempts answered since included, at every run (issue 10, pg7: 9 to 32 pages a run
 * over 1,500 payments, growing until a vacuum); by the primary key it is the one row whatever the plan was made on.
 */
const STATUS_UNINDEXED = sql<string>`${sql.ref('status')} || ''`;

/**
 * An answer's statement returns the attempt and how many attempts its order has then (`order_attempts`): the payment
 * request's answer lists them, and knows from it whether the ones it read at its start are all (pay-order.ts).
 */
function answerAttempt(qb: QueryCreator<Database>, answer: Answer) {
  return writeAnswer(qb, answer).returningAll().returning(orderAttemptCount);
}
function writeAnswer(qb: QueryCreator<Database>, answer: Answer) {
  return qb.updateTable('payments').set(columnsOf(answer)).where('id', '=', answer.id).where(STATUS_UNINDEXED, '=', 'pending');
}
const recordAnswer = prepared((db, answer: Answer) => answerAttempt(db, answer));
type ChargeAnswer = Answer & { transaction_id: string };
/** A charge's answer, with the settlement the gateway may have told of its transaction already (toldSettlement). */
function answerCharge(qb: QueryCreator<Database>, charge: ChargeAnswer) {
  return writeCharge(qb, charge).returningAll().returning(orderAttemptCount);
}
function writeCharge(qb: QueryCreator<Database>, charge: ChargeAnswer) {
  return qb
    .updateTable('payments')
    .set((eb) => ({ ...columnsOf(charge), ...toldSettlement(eb, charge.transaction_id) }))
    .where('id', '=', charge.id)
    .where(STATUS_UNINDEXED, '=', 'pending');
}

/**
 * SQLite's answer: the update without its RETURNING, then what of the row the request does not know already (the
 * settlement a webhook told, the order's attempts) read by the primary key. SQLite's RETURNING puts the rows in a
 * temporary table and hands every column back: 22-25 µs a charge's answer against 12-13 for the update and this read
 * (issue 10, cpu14; in a loop on a bench's database), most of the difference the row of 28 columns made in JS.
 */
const writeAnswerAlone = prepared((db, answer: Answer) => writeAnswer(db, answer));
const writeChargeAlone = prepared((db, charge: ChargeAnswer) => writeCharge(db, charge));
const answeredSince = prepared((db, p: Pick<PaymentRow, 'id'>) =>
  db.selectFrom('payments').select(['settlement_status', 'settlement_status_at', orderAttemptCount]).where('id', '=', p.id),
);

/** Values of a statement that counts what it writes: the answer's, and the velocity counts' (Counts' params) by index. */
type Counted<A> = A & { readonly [index: number]: string | number };

/**
 * The request's answer saved in its outcome's statement (AnswerSaving): its Idempotency-Key's answer, and how many
 * attempts the order has in that answer (`saved_attempts`).
 */
interface SavedParams {
  saved_scope: string;
  saved_key: string;
  saved_status: number;
  saved_body: string;
  saved_attempts: number;
}
function savedParams({ answer, orderAttempts }: Saved): SavedParams {
  return {
    saved_scope: answer.scope,
    saved_key: answer.key,
    saved_status: answer.status,
    saved_body: answer.body,
    saved_attempts: orderAttempts,
  };
}

/**
 * The answer saved as a WITH query of an outcome's statement, when the outcome is what it was made from: the attempt
 * answered by this statement (`answered` has its row), the order then with the attempts the answer lists, and a
 * charge's order paid by it (`paid`). Otherwise nothing is saved, and the request saves the answer it makes then.
 */
function savedWith(qb: QueryCreator<Database>, p: SavedParams, charge: boolean) {
  const paid = charge ? sql` and exists (select 1 from paid)` : sql``;
  return qb
    .updateTable('idempotency_keys')
    .set({ response_status: p.saved_status, response_body: p.saved_body, locked_at: null })
    .where('scope', '=', p.saved_scope)
    .where('key', '=', p.saved_key)
    .where(sql<boolean>`exists (select 1 from answered where order_attempts = ${p.saved_attempts})${paid}`)
    .returning('scope');
}
/** Whether the statement saved the answer (`answer_saved`): false in a statement that saves none. */
const answerSaved = (saves: boolean) =>
  (saves ? sql<boolean>`exists (select 1 from saved)` : sql<boolean>`false`).as('answer_saved');

/**
 * `query` (an outcome's statement, its answered attempt in `answered`) with the WITH queries no other query of it reads:
 * the velocity rules' `size` counts of the answer (countedWith; none when 0) and, when `saves`, the request's answer
 * (savedWith; `charge`: only with the order paid). Its rows and columns are the same with or without them, so it keeps
 * its type: Kysely's would name the two, which nothing reads.
 */
function withUnread<Q extends QueryCreator<Database>>(
  query: Q,
  p: Counted<SavedParams>,
  size: number,
  saves: boolean,
  charge: boolean,
): Q {
  let built: QueryCreator<Database> = query;
  if (size > 0) built = built.with('counted', (qb) => countedWith(qb, 'answered', p, size));
  if (saves) built = built.with('saved', (qb) => savedWith(qb, p, charge));
  return built as Q;
}

/**
 * On PostgreSQL an outcome is one statement (a data-modifying WITH), not a transaction: no BEGIN and COMMIT, one round
 * trip. A charge's answer and its order's move to paid, the velocity rules' count of the outcome (countedWith) and the
 * request's answer (`saves`: savedWith), written only when the answer was (a late duplicate counts nothing),
 * committed together, in one flush. `order_paid`: whether this statement moved the order (a pending one; an order
 * cannot change while it has a pending attempt, so it is, unless the answer was recorded already).
 * `size`: the counts' (0: none).
 */
const recordChargeCounted = byShape((saves: boolean) =>
  byShape((size: number) =>
    prepared((db, charge: Counted<ChargeAnswer & SavedParams>) => {
      const paying = db
        .with('answered', (qb) => answerCharge(qb, charge))
        .with('paid', (qb) =>
          qb
            .updateTable('orders')
            .set({ status: 'paid', updated_at: charge.updated_at })
            .where('id', '=', (eb) => eb.selectFrom('answered').select('order_id'))
            .where('status', '=', 'pending')
            .returning('orders.id'),
        );
      return withUnread(paying, charge, size, saves, true)
        .selectFrom('answered')
        .selectAll()
        .select((eb) => eb.exists(eb.selectFrom('paid').select('id')).as('order_paid'))
        .select(answerSaved(saves));
    }),
  ),
);
/** A decline's answer, the velocity rules' count of it and the request's answer, in one statement on PostgreSQL (as recordChargeCounted). */
const recordAnswerCounted = byShape((saves: boolean) =>
  byShape((size: number) =>
    prepared((db, answer: Counted<Answer & SavedParams>) => {
      const answering = db.with('answered', (qb) => answerAttempt(qb, answer));
      return withUnread(answering, answer, size, saves, false).selectFrom('answered').selectAll().select(answerSaved(saves));
    }),
  ),
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
 * the unique index `payments_order` decides (0021: one pending-or-succeeded attempt per order), so two concurrent
 * attempts cannot both be inserted.
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
  /** The request's answer, saved with the outcome (AnswerSaving); unset when it was not. */
  saved?: KeyAnswer;
}

/**
 * A payment request's answer saved with its attempt's outcome, in the same statement or transaction (one commit to
 * flush, not two): made before the outcome is written, from the attempt as the outcome answers it (`answer`), the order
 * paid by a charge and with `orderAttempts` attempts. Saved only if the outcome is that (recorded by this request, the
 * order then with as many attempts, a charge's order moved to paid by it); otherwise the request answers as it would
 * have and saves that answer at its send.
 */
export interface AnswerSaving {
  orderAttempts: number;
  /** Undefined: no answer could be made (it is made again, and fails, at the send). */
  answer: (payment: PaymentRow) => KeyAnswer | undefined;
}
type Saved = { orderAttempts: number; answer: KeyAnswer };

/**
 * Writes the gateway's answer to a pending attempt (a charge with the settlement the gateway already told of it), and
 * on success marks the order paid, all at once: one statement on PostgreSQL, one transaction on SQLite.
 * Conditional on the attempt still being pending, so a late duplicate cannot overwrite a recorded outcome. `counts`
 * (the velocity rules' count of the outcome: velocity/guard.ts outcomeCounter) are written with this outcome, and only
 * if it is recorded.
 */
export async function recordOutcome(
  db: Db,
  payment: PaymentRow,
  outcome: AttemptOutcome,
  counts: Counts | null = null,
  saving?: AnswerSaving,
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
    // Counted with the outcome (`counts`, from the attempt as it was pending): no longer needed, so not kept.
    velocity_subjects: null,
    updated_at: nowIso(),
  };
  const charge = outcome.kind === 'succeeded' ? { ...answer, transaction_id: outcome.transactionId } : null;
  // The attempt as this outcome answers it (the statement's row but for the settlement a webhook told, which no answer shows).
  const made = saving?.answer({ ...payment, ...columnsOf(answer) });
  const saved = saving && made && { orderAttempts: saving.orderAttempts, answer: made };
  if (isPostgres(db)) return recordInOneStatement(db, payment, answer, charge, counts, saved);
  return transaction(db, async (trx) => {
    const written = await (charge === null ? writeAnswerAlone.affected(trx, answer) : writeChargeAlone.affected(trx, charge));
    if (written === 0) return recordedAlready(trx, payment);
    if (counts !== null) await recordCounts(trx, counts);
    const read = await answeredSince.takeFirst(trx, payment);
    if (read === undefined) throw new Error(`payment ${payment.id} answered but not found`);
    const { order_attempts, ...settlement } = read;
    // The row as the update left it: the pending attempt's, with the answer's columns and the settlement read back.
    const recorded: PaymentRow = { ...payment, ...columnsOf(charge ?? answer), ...settlement };
    const orderAttempts = Number(order_attempts);
    const succeeded = recorded.status === 'succeeded';
    const paid = succeeded && (await updateOrderStatus(trx, payment.order_id, 'pending', 'paid'));
    // The answer made beforehand holds of this outcome (AnswerSaving): committed with it.
    const saves = saved !== undefined && orderAttempts === saved.orderAttempts && (paid || !succeeded);
    const kept = saves && (await saveAnswer.affected(trx, saved.answer)) === 1 ? { saved: saved.answer } : {};
    if (!succeeded) return { payment: recorded, orderStatus: 'pending', orderAttempts, ...kept };
    return { payment: recorded, orderStatus: paid ? 'paid' : await orderStatusOf(trx, payment.order_id), orderAttempts, ...kept };
  });
}

/** recordOutcome on PostgreSQL: the answer, the order's move to paid and the counts in one statement. */
async function recordInOneStatement(
  db: Db,
  payment: PaymentRow,
  answer: Answer,
  charge: ChargeAnswer | null,
  counts: Counts | null,
  saved: Saved | undefined,
): Promise<RecordedOutcome> {
  const size = counts?.size ?? 0;
  const saves = saved !== undefined;
  if (charge !== null && !canTransitionOrder('pending', 'paid')) throw new Error('order cannot go from pending to paid');
  const values = <A extends Answer>(recorded: A) =>
    ({ ...recorded, ...counts?.params, ...(saved && savedParams(saved)) }) as Counted<A & SavedParams>;
  const row =
    charge !== null
      ? await recordChargeCounted(saves)(size).takeFirst(db, values(charge))
      : size === 0 && !saves
        ? await recordAnswer.takeFirst(db, answer)
        : await recordAnswerCounted(saves)(size).takeFirst(db, values(answer));
  if (row === undefined) return recordedAlready(db, payment);
  const { order_attempts, ...rest } = row;
  const {
    order_paid: orderPaid,
    answer_saved: answerWasSaved,
    ...recorded
  } = { order_paid: false, answer_saved: false, ...rest };
  // PostgreSQL counts in a bigint, which pg gives as a string.
  const orderAttempts = Number(order_attempts);
  const kept = saved !== undefined && answerWasSaved === true ? { saved: saved.answer } : {};
  if (recorded.status !== 'succeeded') return { payment: recorded, orderStatus: 'pending', orderAttempts, ...kept };
  return {
    payment: recorded,
    orderStatus: orderPaid === true ? 'paid' : await orderStatusOf(db, payment.order_id),
    orderAttempts,
    ...kept,
  };
}

/** A late duplicate: the outcome recorded first stands, and the order is as it left it. */
async function recordedAlready(db: Db, payment: PaymentRow): Promise<RecordedOutcome> {
  const saved = await db.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
  return { payment: saved, orderStatus: await orderStatusOf(db, payment.order_id), orderAttempts: null };
}

async function orderStatusOf(db: Db, orderId: string): Promise<OrderStatus> {
  const order = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
  return orderStatusSchema.parse(order.status);
}
