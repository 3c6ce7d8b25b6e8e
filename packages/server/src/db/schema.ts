import type { Generated, Insertable, Selectable } from 'kysely';

/**
 * The database as Kysely sees it. Timestamps are ISO-8601 UTC strings on both engines (they sort as text and
 * need no driver-specific parsing); money is integer minor units plus an ISO 4217 currency.
 */
export interface Database {
  accounts: AccountsTable;
  sessions: SessionsTable;
  products: ProductsTable;
  plans: PlansTable;
  orders: OrdersTable;
  order_items: OrderItemsTable;
  payments: PaymentsTable;
  idempotency_keys: IdempotencyKeysTable;
  botcheck_uses: BotcheckUsesTable;
  counters: CountersTable;
  admin_audit_log: AdminAuditLogTable;
  refunds: RefundsTable;
  velocity_counts: VelocityCountsTable;
  velocity_refusals: VelocityRefusalsTable;
  webhook_notifications: WebhookNotificationsTable;
  subscription_states: SubscriptionStatesTable;
  disputes: DisputesTable;
  sign_ups: SignUpsTable;
  mail_outbox: MailOutboxTable;
  rate_limit_hits: RateLimitHitsTable;
}

/** One client's requests to one route in one fixed window (src/plugins/rate-limit-store.ts); swept once it ended. */
export interface RateLimitHitsTable {
  /** The route and the client (`POST /api/session 203.0.113.7`). */
  bucket: string;
  window_ends_at: string;
  hits: number;
}

export interface AccountsTable {
  id: string;
  email: string;
  name: string;
  password_hash: string;
  role: 'shopper' | 'admin';
  gateway_customer_id: string | null;
  created_at: string;
}

export interface SessionsTable {
  id: string;
  /** HMAC of the cookie value: a database leak does not hand out live sessions. */
  token_hash: string;
  account_id: string | null;
  created_at: string;
  expires_at: string;
}

export interface ProductsTable {
  id: string;
  name: string;
  description: string;
  price_amount: number;
  currency: string;
  position: number;
}

/** A subscription plan: the gateway bills it (same id at the gateway); the catalogue names and prices it. */
export interface PlansTable {
  id: string;
  name: string;
  description: string;
  price_amount: number;
  currency: string;
  billing_frequency_months: number;
  position: number;
}

export interface OrdersTable {
  id: string;
  /** The human order number (sequential, from the `order_number` counter); every order has one since 0002. */
  number: number;
  status: string;
  total_amount: number;
  currency: string;
  owner_account_id: string | null;
  owner_session_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface OrderItemsTable {
  order_id: string;
  position: number;
  product_id: string;
  name: string;
  quantity: number;
  unit_amount: number;
  currency: string;
}

export interface PaymentsTable {
  id: string;
  order_id: string;
  status: string;
  amount: number;
  currency: string;
  /** The Idempotency-Key scope+key that started this attempt, so a retry resumes it instead of starting another. */
  idempotency_ref: string | null;
  /**
   * The single-use nonce and device data the attempt was charged with: the exact request is sent again (with the
   * same gateway request key) when an attempt whose outcome was lost is resumed, so the gateway can deduplicate it.
   */
  nonce: string;
  device_data: string | null;
  /** The merchant account the attempt is charged to, fixed at creation so a resend is the same request. */
  merchant_account_id: string | null;
  /** "Save card": the gateway customer the card is saved for on success (signed-in shoppers only); null: not saved. */
  vault_customer_id: string | null;
  /**
   * While pending: what the velocity rules count its outcome against (velocity/guard.ts outcomeSubjects: the payer,
   * the card's keyed hashes and BIN, never the number), so whichever request or job records the outcome counts it the
   * same; null once recorded (counted then), or when made before 0016. Since 0016.
   */
  velocity_subjects: string | null;
  transaction_id: string | null;
  card_brand: string | null;
  card_last_four: string | null;
  decline_reason: string | null;
  processor_response_code: string | null;
  processor_response_text: string | null;
  gateway_rejection_reason: string | null;
  /** The gateway's paymentInstrumentType (`credit_card`, ...), once it answered; since 0005. */
  payment_method_type: string | null;
  /** What the gateway's webhooks last reported of the money's movement: `settled`, `settlement_declined`; null: not yet. */
  settlement_status: string | null;
  /** The gateway's time of that report: an older notification delivered late does not overwrite a newer one. */
  settlement_status_at: string | null;
  /** 1: the sale was sent with `threeDSecure.required` (THREE_D_SECURE_REQUIRED_ABOVE), fixed at creation; since 0008. */
  three_d_secure_required: Generated<number>;
  /** The transaction's 3-D Secure outcome (null: none); the flags are 0/1 (portable across SQLite and PostgreSQL). */
  three_d_secure_status: string | null;
  liability_shifted: number | null;
  liability_shift_possible: number | null;
  created_at: string;
  updated_at: string;
}

/** One row per admin request: who did what, on what, when, and what they were answered. */
export interface AdminAuditLogTable {
  id: string;
  actor_account_id: string;
  /** The route's action name, e.g. `payments.list`. */
  action: string;
  /** The resource acted on (a payment id), when the route names one. */
  target_id: string | null;
  /** JSON of the request's query (the filters a list was read with). */
  detail: string | null;
  status: number;
  created_at: string;
}

/** What the merchant gave back of a payment (since 0007): a refund (a credit transaction) or the void of the charge. */
export interface RefundsTable {
  id: string;
  payment_id: string;
  kind: 'refund' | 'void';
  /** Minor units given back (a void: the whole payment). */
  amount: number;
  currency: string;
  /** The refund's credit transaction at the gateway; null for a void (the sale itself is voided). */
  transaction_id: string | null;
  /** The Idempotency-Key scope+key that asked for it: one refund per key and payment. */
  idempotency_ref: string;
  actor_account_id: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  request_hash: string;
  /** Set while the first request runs; a crashed holder's lock expires. */
  locked_at: string | null;
  response_status: number | null;
  response_body: string | null;
  created_at: string;
}

export interface BotcheckUsesTable {
  fingerprint: string;
  expires_at: string;
}

/** Named sequences that work the same on both engines (incremented in the caller's transaction). */
export interface CountersTable {
  name: 'order_number';
  value: number;
}

/**
 * How many times one subject (an IP, an account, a card fingerprint, ...) did an action within one minute
 * (src/velocity/): a count reads at most a window's minutes of rows, however busy the subject.
 */
export interface VelocityCountsTable {
  action: string;
  dimension: string;
  subject: string;
  /** The card fingerprint of card events (`card_used`, a BIN's `decline` and `approval`), for distinct counts; '' otherwise. */
  detail: string;
  /** The minute's start, ISO 8601 (`2026-11-23T12:34:00.000Z`). */
  minute: string;
  count: number;
}

/** A refusal by a velocity rule, kept for the merchant to review. */
export interface VelocityRefusalsTable {
  id: string;
  rule: string;
  action: string;
  dimension: string;
  subject: string;
  /** A bot-check refusal's reason; null for the velocity rules' (the rule says it). */
  reason: string | null;
  created_at: string;
}

/** A gateway webhook notification, recorded once (the id is derived from kind, subject and the gateway's timestamp). */
export interface WebhookNotificationsTable {
  id: string;
  kind: string;
  /** The transaction, subscription or dispute it is about. */
  subject_id: string;
  notified_at: string;
  received_at: string;
}

/** A subscription's status as the gateway's webhooks last reported it (the gateway stays the source of truth). */
export interface SubscriptionStatesTable {
  id: string;
  /** Null until a notification reports them (some carry only the id). */
  plan_id: string | null;
  /** The provider's status (`Active`, `Past Due`, `Canceled`, `Expired`, `Pending`). */
  status: string | null;
  next_billing_date: string | null;
  failure_count: number | null;
  /** The notification kind that reported it (`subscription_went_past_due`, ...). */
  last_event: string;
  notified_at: string;
}

/**
 * A dispute (chargeback) the gateway reported. Its payment is the one with its transaction id, joined when read (none
 * when the transaction is not one of the product's payments, e.g. made in the gateway's control panel).
 */
export interface DisputesTable {
  id: string;
  transaction_id: string;
  status: string;
  kind: string;
  reason: string;
  amount: number;
  currency: string;
  notified_at: string;
}

export type AccountRow = Selectable<AccountsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ProductRow = Selectable<ProductsTable>;
export type PlanRow = Selectable<PlansTable>;
export type OrderRow = Selectable<OrdersTable>;
export type OrderItemRow = Selectable<OrderItemsTable>;
export type PaymentRow = Selectable<PaymentsTable>;
export type NewPayment = Insertable<PaymentsTable>;
export type IdempotencyKeyRow = Selectable<IdempotencyKeysTable>;
export type AdminAuditRow = Selectable<AdminAuditLogTable>;
export type RefundRow = Selectable<RefundsTable>;

/** A sign-up waiting for its email to be confirmed: the account is made when the mailed link is followed. */
export interface SignUpsTable {
  id: string;
  /** SHA-256 of the mailed token: a database leak hands out no links. */
  token_hash: string;
  email: string;
  name: string;
  password_hash: string;
  created_at: string;
  expires_at: string;
}

/** A mail to send (src/mail/): written in the request, sent by the mail job through the configured delivery. */
export interface MailOutboxTable {
  id: string;
  recipient: string;
  subject: string;
  body: string;
  created_at: string;
  /** Set while a sender holds it; a crashed sender's claim goes stale. */
  claimed_at: string | null;
  sent_at: string | null;
  attempts: Generated<number>;
  last_error: string | null;
}
export type MailRow = Selectable<MailOutboxTable>;
