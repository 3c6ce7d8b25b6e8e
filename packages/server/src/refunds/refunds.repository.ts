import type { Db } from '../db/connect.ts';
import type { PaymentRow, RefundRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';
import { updateOrderStatus } from '../orders/orders.repository.ts';
import { assertPaymentTransition, paymentStatusSchema } from '../payments/payment.ts';

/** A payment's refunds and void, oldest first. */
export function refundsOf(db: Db, paymentId: string): Promise<RefundRow[]> {
  return db.selectFrom('refunds').selectAll().where('payment_id', '=', paymentId).orderBy('created_at').orderBy('id').execute();
}

/** The refund or void an Idempotency-Key already made on a payment (a key makes at most one). */
export function findRefundByRef(db: Db, paymentId: string, idempotencyRef: string): Promise<RefundRow | undefined> {
  return db
    .selectFrom('refunds')
    .selectAll()
    .where('payment_id', '=', paymentId)
    .where('idempotency_ref', '=', idempotencyRef)
    .executeTakeFirst();
}

export interface NewRefund {
  kind: RefundRow['kind'];
  amount: number;
  transactionId: string | null;
  idempotencyRef: string;
  actorAccountId: string;
}

/**
 * Records what the gateway did, with the payment's and the order's new status, in one transaction. The payment row is
 * written first so that concurrent refunds of one payment take turns (a row lock on PostgreSQL, SQLite's one writer):
 * each sees the others' amounts when it decides between partially and fully refunded. A key's refund is recorded once.
 */
export async function recordRefund(
  db: Db,
  payment: PaymentRow,
  refund: NewRefund,
): Promise<{ refund: RefundRow; payment: PaymentRow }> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('payments').set({ updated_at: nowIso() }).where('id', '=', payment.id).execute();
    await trx
      .insertInto('refunds')
      .values({
        id: newId('ref'),
        payment_id: payment.id,
        kind: refund.kind,
        amount: refund.amount,
        currency: payment.currency,
        transaction_id: refund.transactionId,
        idempotency_ref: refund.idempotencyRef,
        actor_account_id: refund.actorAccountId,
        created_at: nowIso(),
      })
      .onConflict((oc) => oc.columns(['payment_id', 'idempotency_ref']).doNothing())
      .execute();
    const saved = await trx
      .selectFrom('refunds')
      .selectAll()
      .where('payment_id', '=', payment.id)
      .where('idempotency_ref', '=', refund.idempotencyRef)
      .executeTakeFirstOrThrow();
    const current = await trx.selectFrom('payments').selectAll().where('id', '=', payment.id).executeTakeFirstOrThrow();
    const given = await trx
      .selectFrom('refunds')
      .select((eb) => eb.fn.sum<number | string>('amount').as('total'))
      .where('payment_id', '=', payment.id)
      .executeTakeFirstOrThrow();
    const to = refund.kind === 'void' ? 'voided' : Number(given.total) >= payment.amount ? 'refunded' : 'partially_refunded';
    const from = paymentStatusSchema.parse(current.status);
    if (from !== to) {
      assertPaymentTransition(from, to);
      await trx.updateTable('payments').set({ status: to, updated_at: nowIso() }).where('id', '=', payment.id).execute();
      if (to !== 'partially_refunded') await updateOrderStatus(trx, payment.order_id, 'paid', to);
    }
    return { refund: saved, payment: { ...current, status: to } };
  });
}
