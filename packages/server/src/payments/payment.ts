import { z } from 'zod';
import type { PaymentRow } from '../db/schema.ts';
import { GATEWAY_DECLINE_REASONS, type ThreeDSecureOutcome } from '../gateway/gateway.ts';
import { moneySchema } from '../money.ts';

/**
 * Payment attempt statuses and their allowed moves: the one source for the union, the schema and the checks.
 * `pending` is recorded BEFORE the gateway call; an attempt left pending (crash, time-out) is resumed by a retry
 * with the same Idempotency-Key, which reuses the attempt's gateway request key.
 */
export const PAYMENT_TRANSITIONS = {
  pending: ['succeeded', 'declined'],
  // The merchant's moves after a charge (src/refunds/): a void before settlement, refunds after it.
  succeeded: ['voided', 'partially_refunded', 'refunded'],
  partially_refunded: ['refunded'],
  refunded: [],
  voided: [],
  declined: [],
} as const satisfies Record<string, readonly string[]>;

export type PaymentStatus = keyof typeof PAYMENT_TRANSITIONS;
export const PAYMENT_STATUSES = Object.keys(PAYMENT_TRANSITIONS) as [PaymentStatus, ...PaymentStatus[]];
export const paymentStatusSchema = z.enum(PAYMENT_STATUSES);

/** Statuses of an attempt that charged the card (whatever the merchant gave back since). */
export const CHARGED_PAYMENT_STATUSES = [
  'succeeded',
  'partially_refunded',
  'refunded',
  'voided',
] as const satisfies readonly PaymentStatus[];

/** Statuses the unique index `payments_order` allows once per order (see migrations, 0021). */
export const LIVE_PAYMENT_STATUSES = ['pending', 'succeeded'] as const satisfies readonly PaymentStatus[];

export function canTransitionPayment(from: PaymentStatus, to: PaymentStatus): boolean {
  return (PAYMENT_TRANSITIONS[from] as readonly PaymentStatus[]).includes(to);
}

/** A status no move leaves (declined, refunded, voided): an attempt in it never changes again. */
export function isFinalPaymentStatus(status: PaymentStatus): boolean {
  return PAYMENT_TRANSITIONS[status].length === 0;
}

export function assertPaymentTransition(from: PaymentStatus, to: PaymentStatus): void {
  if (!canTransitionPayment(from, to)) throw new Error(`payment cannot go from ${from} to ${to}`);
}

/**
 * Why an attempt was declined: the gateway's reasons, and `currency_mismatch` (the merchant account charged another
 * currency than the order's; the charge was voided). The one list the type, the stored value and the API derive from.
 */
export const DECLINE_REASONS = [...GATEWAY_DECLINE_REASONS, 'currency_mismatch'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

/** What the use-case recorded of an attempt sent to the gateway. */
export type AttemptOutcome =
  | {
      kind: 'succeeded';
      transactionId: string;
      paymentMethodType: string;
      card: { brand: string; lastFour: string };
      threeDSecure: ThreeDSecureOutcome | null;
    }
  | {
      kind: 'declined';
      reason: DeclineReason;
      transactionId?: string;
      paymentMethodType?: string;
      threeDSecure?: ThreeDSecureOutcome | null;
      processorResponseCode?: string;
      processorResponseText?: string;
      gatewayRejectionReason?: string;
    };

export const declineSchema = z.object({
  reason: z.enum(DECLINE_REASONS),
  processorResponseCode: z.string().optional(),
  processorResponseText: z.string().optional(),
  gatewayRejectionReason: z.string().optional(),
});
export type Decline = z.infer<typeof declineSchema>;

/** A payment attempt as the API shows it; what it carries depends on its status. */
export const paymentSummarySchema = z.discriminatedUnion('status', [
  z.object({
    id: z.string(),
    status: z.enum(CHARGED_PAYMENT_STATUSES).describe('`succeeded`, or what the merchant gave back since.'),
    amount: moneySchema,
    transactionId: z.string(),
    card: z.object({ brand: z.string(), lastFour: z.string() }),
  }),
  z.object({ id: z.string(), status: z.literal('declined'), amount: moneySchema, decline: declineSchema }),
  z.object({ id: z.string(), status: z.literal('pending'), amount: moneySchema }),
]);
export type PaymentSummary = z.infer<typeof paymentSummarySchema>;

export function toPaymentSummary(row: PaymentRow): PaymentSummary {
  const status = paymentStatusSchema.parse(row.status);
  const amount = { amount: row.amount, currency: row.currency };
  if (isCharged(status)) {
    return {
      id: row.id,
      status,
      amount,
      transactionId: row.transaction_id ?? '',
      card: { brand: row.card_brand ?? '', lastFour: row.card_last_four ?? '' },
    };
  }
  if (status === 'declined') return { id: row.id, status, amount, decline: toDecline(row) };
  return { id: row.id, status, amount };
}

export function isCharged(status: PaymentStatus): status is (typeof CHARGED_PAYMENT_STATUSES)[number] {
  return (CHARGED_PAYMENT_STATUSES as readonly PaymentStatus[]).includes(status);
}

/**
 * A stored decline reason, or `processor_declined` for one the list no longer has. Made once: making a zod schema took
 * about 55 µs here, at each declined attempt an answer showed (issue 10, cpu8).
 */
const storedDeclineReason = z.enum(DECLINE_REASONS).catch('processor_declined');

export function toDecline(row: PaymentRow): Decline {
  const reason = storedDeclineReason.parse(row.decline_reason);
  return {
    reason,
    ...(row.processor_response_code !== null ? { processorResponseCode: row.processor_response_code } : {}),
    ...(row.processor_response_text !== null ? { processorResponseText: row.processor_response_text } : {}),
    ...(row.gateway_rejection_reason !== null ? { gatewayRejectionReason: row.gateway_rejection_reason } : {}),
  };
}
