/** The payment gateway as the product needs it. One adapter today: the official braintree SDK. */
export interface PaymentGateway {
  createCustomer(input: { email: string; name: string }): Promise<{ customerId: string }>;
  /** Base64 client token for the browser; customer-bound when `customerId` is given. */
  generateClientToken(input: { customerId?: string }): Promise<string>;
  sale(input: SaleInput): Promise<SaleOutcome>;
}

export interface SaleInput {
  /** Decimal string, e.g. "20.00": the gateway edge is the only place money is not minor units. */
  amount: string;
  /** ISO 4217 code of the order: the gateway must charge in it, or the charge is voided. */
  currency: string;
  nonce: string;
  deviceData?: string;
  /** The merchant account to charge (each charges one currency); unset, the gateway's default. */
  merchantAccountId?: string;
  orderId: string;
  /** Makes the gateway call idempotent: a retry with the same key returns the first result. */
  requestKey: string;
  /**
   * The same request may have reached the gateway before (its answer was lost). A refusal of the nonce (used,
   * unknown) then says nothing of the first outcome, so it is an unknown outcome, never a decline.
   */
  resend: boolean;
}

/**
 * Why a sale did not go through; the one list the type, the stored value and the API derive from.
 * `currency_mismatch`: the merchant account charges another currency than the order's; the charge was voided.
 */
export const DECLINE_REASONS = ['processor_declined', 'gateway_rejected', 'processor_unavailable', 'currency_mismatch'] as const;
export type DeclineReason = (typeof DECLINE_REASONS)[number];

export type SaleOutcome =
  | { kind: 'succeeded'; transactionId: string; card: { brand: string; lastFour: string } }
  | {
      kind: 'declined';
      reason: DeclineReason;
      transactionId?: string;
      processorResponseCode?: string;
      processorResponseText?: string;
      gatewayRejectionReason?: string;
    };

/** The gateway does not know this customer (deleted in its control panel, or a sandbox that started afresh). */
export class UnknownCustomerError extends Error {
  constructor(readonly customerId: string) {
    super(`the gateway does not know customer ${customerId}`);
    this.name = 'UnknownCustomerError';
  }
}

/** The gateway could not be reached or failed; the outcome of a sale is unknown. */
export class GatewayUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailableError';
  }
}
