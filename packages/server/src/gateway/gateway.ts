/**
 * The payment gateway as the product needs it. One adapter today: the official braintree SDK. An adapter reports what
 * the gateway said, in the gateway's own terms; what that means for a payment is the payment use-case's call
 * (payments/pay-order.ts).
 */
export interface PaymentGateway {
  createCustomer(input: { email: string; name: string }): Promise<{ customerId: string }>;
  /**
   * Base64 client token for the browser, never bound to a customer: a customer's token lets whoever holds it save
   * (and so verify: test) cards at the gateway's client API, past the bot-check and the card-save rules (issue 9).
   * Saved methods are listed and saved through the server instead.
   */
  generateClientToken(): Promise<string>;
  sale(input: SaleInput): Promise<SaleResult>;
  /** Voids an authorized or submitted sale, deduplicated on `requestKey` like a sale. */
  voidTransaction(transactionId: string, input: { requestKey: string }): Promise<VoidResult>;
  /** Refunds a settled sale, fully or in part (a credit transaction), deduplicated on `requestKey` like a sale. */
  refundTransaction(transactionId: string, input: { amount: string; requestKey: string }): Promise<RefundResult>;
  /** A transaction's current status, as the gateway names it (`voided`, `settling`, ...). */
  transactionStatus(transactionId: string): Promise<string>;
  /** A transaction's status and every status it went through, oldest first (the merchant's timeline of a payment). */
  transactionHistory(transactionId: string): Promise<TransactionHistory>;
}

export interface TransactionHistory {
  status: string;
  /** `authorized`, `submitted_for_settlement`, `settling`, `settled`, `voided`, ... with when and for how much. */
  history: { status: string; at: string; amount: string | null }[];
}

export interface SaleInput {
  /** Decimal string, e.g. "20.00": the gateway edge is the only place money is not minor units. */
  amount: string;
  nonce: string;
  deviceData?: string;
  /** The merchant account to charge (each charges one currency); unset, the gateway's default. */
  merchantAccountId?: string;
  /** "Save card": on success the card is saved for this gateway customer (`storeInVaultOnSuccess`). */
  vaultCustomerId?: string;
  /** `options.threeDSecure.required`: the gateway rejects the sale (`three_d_secure`) unless the liability shifted. */
  threeDSecureRequired?: boolean;
  orderId: string;
  /** Makes the gateway call idempotent: a retry with the same key returns the first result. */
  requestKey: string;
}

/** A transaction's 3-D Secure outcome, as the gateway recorded it (null: the nonce carried none). */
export interface ThreeDSecureOutcome {
  /** The gateway's status: `authenticate_successful`, `lookup_error`, ... */
  status: string;
  liabilityShifted: boolean;
  liabilityShiftPossible: boolean;
}

/** Why the gateway declined a sale it recorded. */
export const GATEWAY_DECLINE_REASONS = ['processor_declined', 'gateway_rejected', 'processor_unavailable'] as const;
export type GatewayDeclineReason = (typeof GATEWAY_DECLINE_REASONS)[number];

/** What the gateway answered to a sale. */
export type SaleResult =
  /** A transaction whose status means the money will move; `currency` is the one it was charged in. */
  | {
      kind: 'charged';
      transactionId: string;
      status: string;
      currency: string;
      paymentMethodType: string;
      /** What paid: a card's brand and last four, or a wallet's name (last four of its device card, or '' for an account). */
      card: { brand: string; lastFour: string };
      threeDSecure: ThreeDSecureOutcome | null;
    }
  /** A transaction the gateway or the processor declined. */
  | {
      kind: 'declined';
      reason: GatewayDeclineReason;
      transactionId: string;
      /** The gateway's paymentInstrumentType: `credit_card`, `paypal_account`, ... */
      paymentMethodType: string;
      threeDSecure: ThreeDSecureOutcome | null;
      processorResponseCode?: string;
      processorResponseText?: string;
      gatewayRejectionReason?: string;
    }
  /**
   * No transaction: the gateway refused the request (validation errors, e.g. a used or unknown nonce), or
   * `request_key_conflict`: the request key came with another request, or its first request is still in flight.
   */
  | { kind: 'refused'; reason: 'invalid_request' | 'request_key_conflict'; codes: readonly string[]; message: string }
  /** A transaction in a status that is neither a charge nor a decline yet (`authorizing`, ...). */
  | { kind: 'undecided'; transactionId: string; status: string };

/** `codes`: the gateway's validation error codes of a refusal (91504: not voidable in its status). */
export type VoidResult = { kind: 'voided' } | { kind: 'refused'; codes: readonly string[]; message: string };

/** A refund is a credit transaction of its own; a refusal carries the gateway's codes (91506, 91521, ...). */
export type RefundResult =
  | { kind: 'refunded'; transactionId: string }
  | { kind: 'refused'; codes: readonly string[]; message: string };

/** The gateway could not be reached or failed, or what it said leaves a sale's outcome unknown. */
export class GatewayUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailableError';
  }
}
