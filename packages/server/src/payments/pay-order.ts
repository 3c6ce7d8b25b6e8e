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
 * An attempt still pending after this long lost its request (a crash, a time-out): the gateway SDK gives up on a call
 * after 60 s, so no live request is raced when another request finishes the attempt.
 */
export const STALE_ATTEMPT_MS = 2 * 60 * 1000;

/**
 * Pays an order: the amount is the order's, the attempt (with its nonce) is recorded before the gateway is called,
 * the gateway call runs outside any transaction, and the outcome is written in one transaction with the order's
 * status. An attempt whose outcome was lost stays pending and is finished by sending its own request again under
 * its own gateway request key, so the gateway answers its first outcome instead of charging twice: by a retry with
 * the same Idempotency-Key, or, once stale, by the next payment request for the order.
 */
export async function payOrder(deps: PayOrderDeps, input: PayOrderInput, now: Date = new Date()): Promise<PayOrderResult> {
  const orderRow = await findOwnedOrderRow(deps.db, input.orderId, input.owner);
  if (orderRow === undefined) return { kind: 'order_not_found' };
  if (orderRow.status === 'paid') return { kind: 'order_already_paid' };

  const live = await findLivePayment(deps.db, orderRow.id);
  if (live?.status === 'pending') {
    // The same request again (its Idempotency-Key pins the nonce): it already passed the bot-check.
    if (live.idempotency_ref === input.idempotencyRef) return charge(deps, live, input.owner);
    if (now.getTime() - Date.parse(live.created_at) < STALE_ATTEMPT_MS) return { kind: 'payment_in_progress' };
    const finished = await charge(deps, live, input.owner);
    if (finished.kind === 'succeeded') return { kind: 'order_already_paid' };
  }

  const verdict = await checkBotcheck(deps.botcheck, deps.replays, input.botcheckToken);
  if (!verdict.ok) return { kind: 'botcheck_failed', reason: verdict.reason };
  const payment = await insertPendingPayment(deps.db, {
    orderId: orderRow.id,
    amount: { amount: orderRow.total_amount, currency: orderRow.currency },
    idempotencyRef: input.idempotencyRef,
    nonce: input.nonce,
    deviceData: input.deviceData ?? null,
  });
  if (payment === undefined) {
    const winner = await findLivePayment(deps.db, orderRow.id);
    return winner?.status === 'succeeded' ? { kind: 'order_already_paid' } : { kind: 'payment_in_progress' };
  }
  return charge(deps, payment, input.owner);
}

/** Sends a pending attempt's own request to the gateway and records the answer. */
async function charge(
  deps: PayOrderDeps,
  payment: PaymentRow,
  owner: Owner,
): Promise<Extract<PayOrderResult, { kind: 'succeeded' | 'declined' }>> {
  const outcome = await deps.gateway.sale({
    amount: toDecimalString({ amount: payment.amount, currency: payment.currency }),
    currency: payment.currency,
    nonce: payment.nonce,
    ...(payment.device_data !== null ? { deviceData: payment.device_data } : {}),
    orderId: payment.order_id,
    requestKey: gatewayRequestKey(payment),
  });
  const saved = await recordOutcome(deps.db, payment, outcome);
  const order = await findOwnedOrder(deps.db, payment.order_id, owner);
  if (order === undefined) throw new Error(`order ${payment.order_id} vanished during payment`);
  return saved.status === 'succeeded' ? { kind: 'succeeded', payment: saved, order } : { kind: 'declined', payment: saved, order };
}
