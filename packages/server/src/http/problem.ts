import { z } from 'zod';

/**
 * Every error code the API answers with, its HTTP status and its title: one catalogue, so codes stay stable
 * and no message is written inline in a handler.
 */
export const PROBLEMS = {
  validation_failed: { status: 400, title: 'The request is not valid.' },
  invalid_credentials: { status: 401, title: 'The email or password is not correct.' },
  not_signed_in: { status: 401, title: 'Sign in first.' },
  webhook_signature_invalid: { status: 401, title: "The webhook notification's signature does not verify." },
  payment_declined: { status: 402, title: 'The payment was declined.' },
  three_d_secure_required: {
    status: 402,
    title:
      'This payment needs the card to pass 3-D Secure with a liability shift. Pay again to authenticate it, or use another card.',
  },
  subscription_declined: { status: 402, title: "The subscription's first payment was declined. Try another card." },
  botcheck_failed: { status: 403, title: 'The bot check did not pass. Try again.' },
  forbidden: { status: 403, title: 'You may not do that.' },
  cross_site_request: { status: 403, title: 'This request came from another site and was refused.' },
  not_found: { status: 404, title: 'Nothing lives at this address.' },
  order_not_found: { status: 404, title: 'The order does not exist.' },
  payment_method_not_found: { status: 404, title: 'The saved payment method does not exist.' },
  plan_not_found: { status: 404, title: 'The plan does not exist.' },
  subscription_not_found: { status: 404, title: 'The subscription does not exist.' },
  payment_not_found: { status: 404, title: 'The payment does not exist.' },
  dispute_not_found: { status: 404, title: 'The dispute does not exist.' },
  evidence_not_found: { status: 404, title: "The dispute's evidence has no such item: it was removed already." },
  email_taken: { status: 409, title: 'An account with this email already exists. Sign in instead.' },
  order_already_paid: { status: 409, title: 'The order is already paid.' },
  payment_in_progress: { status: 409, title: 'Another payment for this order is in progress.' },
  payment_method_duplicate: { status: 409, title: 'This credit card already exists as a saved payment method.' },
  wallet_already_saved: { status: 409, title: 'This account is already saved as a payment method.' },
  payment_method_has_subscription: {
    status: 409,
    title: 'This card pays for an active subscription. Cancel the subscription before deleting the card.',
  },
  subscription_not_cancelable: { status: 409, title: 'The subscription has expired: there is nothing left to cancel.' },
  payment_not_refundable: { status: 409, title: 'Only a payment that went through can be refunded or voided.' },
  payment_settling: {
    status: 409,
    title: 'The payment is settling at the gateway: it can be neither voided nor refunded until it has settled. Refund it then.',
  },
  refund_not_settled: {
    status: 409,
    title: 'The payment has not settled yet: void it instead, or refund it once it has settled.',
  },
  already_refunded: { status: 409, title: 'Nothing is left to refund on this payment.' },
  void_not_allowed: {
    status: 409,
    title: 'Only a payment that has not settled, and has no refunds, can be voided. Refund it instead.',
  },
  dispute_not_open: {
    status: 409,
    title: 'This dispute is closed (accepted, decided, or with the bank): it can no longer be accepted or answered.',
  },
  idempotency_key_in_use: { status: 409, title: 'A request with this Idempotency-Key is still running. Retry later.' },
  payload_too_large: { status: 413, title: 'The request body is too large.' },
  uri_too_long: { status: 414, title: 'The address is too long.' },
  unsupported_media_type: { status: 415, title: 'Send the request as application/json.' },
  sign_up_link_invalid: {
    status: 410,
    title: 'This link has expired or was already used. Sign up again, or sign in if you finished already.',
  },
  idempotency_key_reused: { status: 422, title: 'This Idempotency-Key was used with a different request.' },
  refund_exceeds_amount: { status: 422, title: 'The refund is more than what is left of the payment.' },
  gateway_refused: { status: 422, title: 'The payment gateway refused the request.' },
  card_verification_failed: { status: 422, title: 'Credit card verification failed.' },
  payment_method_invalid: {
    status: 422,
    title: 'The payment method could not be saved. Enter it again, or approve the wallet again.',
  },
  rate_limited: { status: 429, title: 'Too many requests. Slow down and retry.' },
  too_many_attempts: { status: 429, title: 'Too many attempts from here. Wait a while before trying again.' },
  internal_error: { status: 500, title: 'Something went wrong on our side.' },
  gateway_unavailable: { status: 502, title: 'The payment gateway did not answer. Retry with the same Idempotency-Key.' },
  gateway_not_configured: { status: 503, title: 'No payment gateway is configured.' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemCode = keyof typeof PROBLEMS;
export const PROBLEM_CODES = Object.keys(PROBLEMS) as [ProblemCode, ...ProblemCode[]];

export const fieldErrorSchema = z.object({
  field: z.string().describe("The field, by its path (`items.0.quantity`), a header's name, or `body`."),
  code: z.string(),
  message: z.string(),
});
export type FieldError = z.infer<typeof fieldErrorSchema>;

/** An application/problem+json body (RFC 9457); some codes add members (`decline`, `payment`). */
export const problemSchema = z.looseObject({
  type: z.string(),
  title: z.string(),
  status: z.number().int(),
  code: z.enum(PROBLEM_CODES),
  detail: z.string(),
  errors: z.array(fieldErrorSchema).optional(),
});
export type ProblemBody = z.infer<typeof problemSchema>;

/** A failure a route answers with as application/problem+json. `extensions` add members (e.g. `decline`). */
export class ProblemError extends Error {
  readonly code: ProblemCode;
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly extensions: Record<string, unknown>;

  constructor(code: ProblemCode, options: { detail?: string; errors?: FieldError[]; extensions?: Record<string, unknown> } = {}) {
    super(options.detail ?? PROBLEMS[code].title);
    this.name = 'ProblemError';
    this.code = code;
    this.status = PROBLEMS[code].status;
    this.errors = options.errors;
    this.extensions = options.extensions ?? {};
  }

  toBody(): ProblemBody {
    return problemBody(this.code, { detail: this.message, errors: this.errors, extensions: this.extensions });
  }
}

export function problemBody(
  code: ProblemCode,
  options: { detail?: string; errors?: FieldError[] | undefined; extensions?: Record<string, unknown> } = {},
): ProblemBody {
  const { status, title } = PROBLEMS[code];
  return {
    ...options.extensions,
    type: `https://kassa.dev/problems/${code.replaceAll('_', '-')}`,
    title,
    status,
    code,
    detail: options.detail ?? title,
    ...(options.errors !== undefined && options.errors.length > 0 ? { errors: options.errors } : {}),
  };
}

export const PROBLEM_CONTENT_TYPE = 'application/problem+json; charset=utf-8';
