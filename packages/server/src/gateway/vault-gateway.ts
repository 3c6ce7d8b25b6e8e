/**
 * The gateway's vault and recurring billing as the product needs them: saved cards of a gateway customer and the
 * subscriptions they pay. The vault is the one source of truth for saved cards (the product keeps no copy, so a card
 * deleted in the gateway's control panel is gone here too). One adapter: the official braintree SDK.
 */
export interface VaultGateway {
  /** The customer's saved cards, default first; null when the gateway does not know the customer. */
  listCards(customerId: string): Promise<SavedCard[] | null>;
  /** A saved card by its token; null when unknown. */
  findCard(token: string): Promise<SavedCard | null>;
  /** Saves a tokenized card for the customer, verified, refusing a card already in the vault. */
  addCard(input: { customerId: string; nonce: string; makeDefault: boolean }): Promise<AddCardOutcome>;
  makeDefault(token: string): Promise<SavedCard>;
  deleteCard(token: string): Promise<void>;
  /** A single-use nonce that charges the saved card (`paymentMethodNonce.create`). */
  createNonce(token: string): Promise<string>;
  /** Idempotent by `id`: the same id again finds the subscription the first call made. */
  subscribe(input: { id: string; planId: string; paymentMethodToken: string; price: string }): Promise<SubscribeOutcome>;
  findSubscription(id: string): Promise<GatewaySubscription | null>;
  cancelSubscription(id: string): Promise<GatewaySubscription>;
  /**
   * The merchant's subscriptions (`subscription.search`) in `subscriptionOrder`, only those after `after` when given,
   * at most `limit` (the dashboard's list, paged by the last one shown).
   */
  searchSubscriptions(filter: SubscriptionSearchFilter): Promise<BilledSubscription[]>;
}

export interface SubscriptionSearchFilter {
  status?: SubscriptionStatus;
  /** Only the subscription with this id. */
  id?: string;
  /** The last subscription of the page before: only those after it in `subscriptionOrder`. */
  after?: { createdAt: string; id: string };
  limit: number;
}

/**
 * The list's order: newest first, then by id (descending). The gateway orders its search newest first only, so the
 * id breaks ties between subscriptions created in the same second and a page boundary never repeats or skips one.
 */
export function subscriptionOrder(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  return Date.parse(b.createdAt) - Date.parse(a.createdAt) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

/** A subscription with what the merchant follows up on: who pays it and how many charges failed in a row. */
export interface BilledSubscription extends GatewaySubscription {
  failureCount: number;
  /** What is owed after failed charges (decimal string). */
  balance: string;
  /** The gateway customer its charges bill; null before its first charge. */
  customerId: string | null;
}

/** The provider's subscription statuses. */
export const SUBSCRIPTION_STATUSES = ['Active', 'Canceled', 'Expired', 'Past Due', 'Pending'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A subscription in these statuses still charges its card: the card may not be deleted. */
const CHARGING_STATUSES: ReadonlySet<SubscriptionStatus> = new Set(['Active', 'Past Due', 'Pending']);

export function isCharging(subscription: Pick<GatewaySubscription, 'status'>): boolean {
  return CHARGING_STATUSES.has(subscription.status);
}

export interface SavedCard {
  token: string;
  customerId: string;
  brand: string;
  bin: string;
  lastFour: string;
  expirationMonth: string;
  expirationYear: string;
  cardholderName: string | null;
  isDefault: boolean;
  subscriptions: GatewaySubscription[];
}

export interface GatewaySubscription {
  id: string;
  planId: string;
  status: SubscriptionStatus;
  /** Decimal string at the gateway edge, as the SDK gives it. */
  price: string;
  paymentMethodToken: string;
  nextBillingDate: string | null;
  createdAt: string;
}

/** Why a card verification failed (what the gateway's verification says). */
export interface VerificationFailure {
  status: string;
  processorResponseCode: string | null;
  processorResponseText: string | null;
  gatewayRejectionReason: string | null;
}

export type AddCardOutcome =
  | { kind: 'saved'; card: SavedCard }
  | { kind: 'duplicate' }
  | { kind: 'verification_failed'; verification: VerificationFailure }
  | { kind: 'unknown_customer' }
  | { kind: 'invalid_nonce'; message: string };

export type SubscribeOutcome =
  | { kind: 'created'; subscription: GatewaySubscription }
  | { kind: 'declined'; processorResponseCode: string | null; processorResponseText: string | null };
