import { z } from 'zod';
import type { PaymentRow } from '../db/schema.ts';
import { DECLINE_REASONS, type DeclineReason } from '../gateway/gateway.ts';
import type { Money } from '../money.ts';

/**
 * Payment attempt statuses and their allowed moves: the one source for the union, the schema and the checks.
 * `pending` is recorded BEFORE the gateway call; an attempt left pending (crash, time-out) is resumed by a retry
 * with the same Idempotency-Key, which reuses the attempt's gateway request key.
 */
export const PAYMENT_TRANSITIONS = {
  pending: ['succeeded', 'declined'],
  succeeded: [],
  declined: [],
} as const satisfies Record<string, readonly string[]>;

export type PaymentStatus = keyof typeof PAYMENT_TRANSITIONS;
export const PAYMENT_STATUSES = Object.keys(PAYMENT_TRANSITIONS) as [PaymentStatus, ...PaymentStatus[]];
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

/** Statuses the partial unique index `payments_one_live_per_order` allows once per order (see migrations). */
export const LIVE_PAYMENT_STATUSES = ['pending', 'succeeded'] as const satisfies readonly PaymentStatus[];

export function canTransitionPayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return (PAYMENT_TRANSITIONS[from] as readonly PaymentStatus[]).includes(to);
}

export function assertPaymentTransition(from: PaymentStatus, to: PaymentStatus): void {
  if (!canTransitionPayment(from, to)) throw new Error(`payment cannot go from ${from} to ${to}`);
}

export interface Decline {
  reason: DeclineReason;
  processorResponseCode?: string;
  processorResponseText?: string;
  gatewayRejectionReason?: string;
}

export type PaymentSummary =
  | { id: string; status: 'succeeded'; amount: Money; transactionId: string; card: { brand: string; lastFour: string } }
  | { id: string; status: 'declined'; amount: Money; decline: Decline }
  | { id: string; status: 'pending'; amount: Money };

export function toPaymentSummary(row: PaymentRow): PaymentSummary {
  const status = paymentStatusSchema.parse(row.status);
  const amount = { amount: row.amount, currency: row.currency };
  if (status === 'succeeded') {
    return { id: row.id, status, amount, transactionId: row.transaction_id ?? '', card: { brand: row.card_brand ?? '', lastFour: row.card_last_four ?? '' } };
  }
  if (status === 'declined') return { id: row.id, status, amount, decline: toDecline(row) };
  return { id: row.id, status, amount };
}

export function toDecline(row: PaymentRow): Decline {
  const reason = z.enum(DECLINE_REASONS).catch('processor_declined').parse(row.decline_reason);
  return {
    reason,
    ...(row.processor_response_code !== null ? { processorResponseCode: row.processor_response_code } : {}),
    ...(row.processor_response_text !== null ? { processorResponseText: row.processor_response_text } : {}),
    ...(row.gateway_rejection_reason !== null ? { gatewayRejectionReason: row.gateway_rejection_reason } : {}),
  };
}
