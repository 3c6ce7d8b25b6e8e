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
  orderId: string;
  /** Makes the gateway call idempotent: a retry with the same key returns the first result. */
  requestKey: string;
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

/** The gateway could not be reached or failed; the outcome of a sale is unknown. */
export class GatewayUnavailableError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'GatewayUnavailableError';
  }
}
