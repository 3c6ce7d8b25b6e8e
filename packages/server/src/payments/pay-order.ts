import { checkBotcheck } from '../botcheck/verifier.ts';
import type { BotcheckVerifier, ReplayStore } from '../botcheck/verifier.ts';
import type { Db } from '../db/connect.ts';
import type { PaymentRow } from '../db/schema.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { toDecimalString } from '../money.ts';
import type { Order, Owner } from '../orders/order.ts';
import { findOwnedOrder, findOwnedOrderRow } from '../orders/orders.repository.ts';
import { findLivePayment, insertPendingPayment, recordOutcome } from './payments.repository.ts';

export interface PayOrderDeps {
  db: Db;
  gateway: PaymentGateway;
  botcheck: BotcheckVerifier;
  replays: ReplayStore;
}

export interface PayOrderInput {
  orderId: string;
  owner: Owner;
  nonce: string;
  deviceData?: string;
  botcheckToken: string;
  /** Scope+key of the request's Idempotency-Key: a retry with it resumes an unfinished attempt. */
  idempotencyRef: string;
}

export type PayOrderResult =
  | { kind: 'succeeded'; payment: PaymentRow; order: Order }
  | { kind: 'declined'; payment: PaymentRow; order: Order }
  | { kind: 'order_not_found' }
  | { kind: 'order_already_paid' }
  | { kind: 'payment_in_progress' }
  | { kind: 'botcheck_failed'; reason: string };

/** The key the gateway deduplicates on: derived from the attempt, so a resumed attempt cannot charge twice. */
export function gatewayRequestKey(payment: Pick<PaymentRow, 'id'>): string {
  return `kassa-${payment.id}`;
}

/**
 * Pays an order: the amount is the order's, the attempt is recorded before the gateway is called, the gateway
 * call runs outside any transaction, and the outcome is written in one transaction with the order's status.
 * A failure after the gateway answered leaves the attempt pending; retrying with the same Idempotency-Key
 * resumes it with the same gateway request key, so the gateway returns its first answer instead of charging again.
 */
export async function payOrder(deps: PayOrderDeps, input: PayOrderInput): Promise<PayOrderResult> {
  const orderRow = await findOwnedOrderRow(deps.db, input.orderId, input.owner);
  if (orderRow === undefined) return { kind: 'order_not_found' };
  if (orderRow.status === 'paid') return { kind: 'order_already_paid' };

  let payment = await resumable(deps.db, orderRow.id, input.idempotencyRef);
  if (payment === undefined) {
    // A resumed attempt already passed the bot-check; a new one must pass it, once.
    const verdict = await checkBotcheck(deps.botcheck, deps.replays, input.botcheckToken);
    if (!verdict.ok) return { kind: 'botcheck_failed', reason: verdict.reason };
    const amount = { amount: orderRow.total_amount, currency: orderRow.currency };
    payment = await insertPendingPayment(deps.db, { orderId: orderRow.id, amount, idempotencyRef: input.idempotencyRef });
    if (payment === undefined) {
      const live = await findLivePayment(deps.db, orderRow.id);
      if (live?.status === 'succeeded') return { kind: 'order_already_paid' };
      return { kind: 'payment_in_progress' };
    }
  }

  const outcome = await deps.gateway.sale({
    amount: toDecimalString({ amount: payment.amount, currency: payment.currency }),
    nonce: input.nonce,
    ...(input.deviceData !== undefined ? { deviceData: input.deviceData } : {}),
    orderId: orderRow.id,
    requestKey: gatewayRequestKey(payment),
  });
  const saved = await recordOutcome(deps.db, payment, outcome);
  const order = await findOwnedOrder(deps.db, orderRow.id, input.owner);
  if (order === undefined) throw new Error(`order ${orderRow.id} vanished during payment`);
  return saved.status === 'succeeded' ? { kind: 'succeeded', payment: saved, order } : { kind: 'declined', payment: saved, order };
}

async function resumable(db: Db, orderId: string, idempotencyRef: string): Promise<PaymentRow | undefined> {
  const live = await findLivePayment(db, orderId);
  return live?.status === 'pending' && live.idempotency_ref === idempotencyRef ? live : undefined;
}
