import { createHash } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { PaymentRow, RefundRow } from '../db/schema.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import type { ProblemCode } from '../http/problem.ts';
import { toDecimalString } from '../money.ts';
import { isCharged, paymentStatusSchema } from '../payments/payment.ts';
import { findRefundByRef, recordRefund, refundsOf } from './refunds.repository.ts';

export interface RefundDeps {
  db: Db;
  gateway: PaymentGateway;
}

export interface RefundRequest {
  paymentId: string;
  /** The admin asking. */
  actorAccountId: string;
  /** Scope+key of the request's Idempotency-Key: the refund it made is found again, and its gateway request key. */
  idempotencyRef: string;
}

/** Why a refund or void was refused: by our rules before the gateway, or the gateway's own (its codes mapped). */
export type RefundRefusal = Extract<
  ProblemCode,
  | 'payment_not_refundable'
  | 'refund_not_settled'
  | 'payment_settling'
  | 'refund_exceeds_amount'
  | 'already_refunded'
  | 'void_not_allowed'
  | 'gateway_refused'
>;

export type RefundOutcome =
  | { kind: 'done'; refund: RefundRow; payment: PaymentRow }
  | { kind: 'payment_not_found' }
  | { kind: 'refused'; reason: RefundRefusal };

/**
 * The gateway's refusal codes (gateway.md): 91506 not settled yet, 91574 settling (neither a refund nor a void can be
 * made until it has settled), 91521 more than what is left, 91512 nothing left, 91504 not voidable in its status.
 * Anything else is the gateway's refusal, said as such.
 */
const GATEWAY_REFUSALS: Partial<Record<string, RefundRefusal>> = {
  '91506': 'refund_not_settled',
  '91574': 'payment_settling',
  '91521': 'refund_exceeds_amount',
  '91512': 'already_refunded',
  '91504': 'void_not_allowed',
};

/** The gateway's statuses of a charge on its way to settlement: neither voidable nor refundable (gateway.md). */
const SETTLING: ReadonlySet<string> = new Set(['settling', 'settlement_pending']);

function refusalOf(codes: readonly string[]): RefundRefusal {
  for (const code of codes) {
    const reason = GATEWAY_REFUSALS[code];
    if (reason !== undefined) return reason;
  }
  return 'gateway_refused';
}

/** The gateway request key of a refund or void: derived from the Idempotency-Key, so a retry cannot give back twice. */
export function refundRequestKey(payment: Pick<PaymentRow, 'id'>, kind: RefundRow['kind'], idempotencyRef: string): string {
  return `kassa-${payment.id}-${kind}-${createHash('sha256').update(idempotencyRef).digest('hex').slice(0, 32)}`;
}

async function load(db: Db, request: RefundRequest): Promise<{ payment: PaymentRow; done: RefundRow | undefined } | undefined> {
  const payment = await db.selectFrom('payments').selectAll().where('id', '=', request.paymentId).executeTakeFirst();
  if (payment === undefined) return undefined;
  return { payment, done: await findRefundByRef(db, payment.id, request.idempotencyRef) };
}

/**
 * Refunds a payment, in full (`amount` unset: what is left) or in part, never more than what is left. The gateway is
 * called outside any transaction with a request key derived from the Idempotency-Key, so a retry after a lost answer
 * gets the same credit transaction; what it did is then recorded with the payment's and order's status at once.
 */
export async function refundPayment(deps: RefundDeps, request: RefundRequest & { amount?: number }): Promise<RefundOutcome> {
  const loaded = await load(deps.db, request);
  if (loaded === undefined) return { kind: 'payment_not_found' };
  const { payment, done } = loaded;
  if (done?.kind === 'refund') return { kind: 'done', refund: done, payment };

  const status = paymentStatusSchema.parse(payment.status);
  if (status === 'refunded') return { kind: 'refused', reason: 'already_refunded' };
  if (!isCharged(status) || status === 'voided' || payment.transaction_id === null)
    return { kind: 'refused', reason: 'payment_not_refundable' };
  const given = (await refundsOf(deps.db, payment.id)).reduce((sum, refund) => sum + refund.amount, 0);
  const left = payment.amount - given;
  if (left <= 0) return { kind: 'refused', reason: 'already_refunded' };
  const amount = request.amount ?? left;
  if (amount > left) return { kind: 'refused', reason: 'refund_exceeds_amount' };

  const result = await deps.gateway.refundTransaction(payment.transaction_id, {
    amount: toDecimalString({ amount, currency: payment.currency }),
    requestKey: refundRequestKey(payment, 'refund', request.idempotencyRef),
  });
  if (result.kind === 'refused') return { kind: 'refused', reason: refusalOf(result.codes) };
  return {
    kind: 'done',
    ...(await recordRefund(deps.db, payment, {
      kind: 'refund',
      amount,
      transactionId: result.transactionId,
      idempotencyRef: request.idempotencyRef,
      actorAccountId: request.actorAccountId,
    })),
  };
}

/** Voids a payment's charge before it settles (the gateway judges settlement: 91504 after it). No refund may precede it. */
export async function voidPayment(deps: RefundDeps, request: RefundRequest): Promise<RefundOutcome> {
  const loaded = await load(deps.db, request);
  if (loaded === undefined) return { kind: 'payment_not_found' };
  const { payment, done } = loaded;
  if (done?.kind === 'void') return { kind: 'done', refund: done, payment };

  const status = paymentStatusSchema.parse(payment.status);
  if (!isCharged(status) || payment.transaction_id === null) return { kind: 'refused', reason: 'payment_not_refundable' };
  if (status !== 'succeeded') return { kind: 'refused', reason: 'void_not_allowed' };

  const transactionId = payment.transaction_id;
  const result = await deps.gateway.voidTransaction(transactionId, {
    requestKey: refundRequestKey(payment, 'void', request.idempotencyRef),
  });
  if (result.kind === 'refused') {
    const reason = refusalOf(result.codes);
    // 91504 says only "not in a voidable status": while the charge settles a refund is refused too, so say to wait.
    if (reason === 'void_not_allowed' && SETTLING.has((await deps.gateway.transactionHistory(transactionId)).status))
      return { kind: 'refused', reason: 'payment_settling' };
    return { kind: 'refused', reason };
  }
  return {
    kind: 'done',
    ...(await recordRefund(deps.db, payment, {
      kind: 'void',
      amount: payment.amount,
      transactionId: null,
      idempotencyRef: request.idempotencyRef,
      actorAccountId: request.actorAccountId,
    })),
  };
}
