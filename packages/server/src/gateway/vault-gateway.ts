import type { CardDescription } from './card-lookup.ts';

/**
 * The gateway's vault and recurring billing as the product needs them: saved payment methods (cards and wallets) of a
 * gateway customer and the subscriptions they pay. The vault is the one source of truth for saved methods (the product
 * keeps no copy, so a method deleted in the gateway's control panel is gone here too). One adapter: the official
 * braintree SDK.
 */
export interface VaultGateway {
  /** The customer's saved methods, default first; null when the gateway does not know the customer. */
  listMethods(customerId: string): Promise<VaultedMethod[] | null>;
  /** A saved method by its token; null when unknown. */
  findMethod(token: string): Promise<VaultedMethod | null>;
  /**
   * Saves a tokenized card (verified, refusing a card already saved for the customer) or an approved wallet (a PayPal
   * billing agreement, a Venmo account, an Apple Pay or Google Pay card) for the customer.
   */
  addMethod(input: { customerId: string; nonce: string; makeDefault: boolean }): Promise<AddMethodOutcome>;
  makeDefault(token: string): Promise<VaultedMethod>;
  deleteMethod(token: string): Promise<void>;
  /**
   * A single-use nonce that charges the saved method (`paymentMethodNonce.create`), with the card the gateway's answer
   * describes (null for a wallet).
   */
  createNonce(token: string): Promise<{ nonce: string; card: CardDescription | null }>;
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

/** The provider's names of the kinds of saved methods (the client's `type`). */
export const VAULTED_METHOD_TYPES = ['CreditCard', 'PayPalAccount', 'VenmoAccount', 'ApplePayCard', 'AndroidPayCard'] as const;
export type VaultedMethodType = (typeof VAULTED_METHOD_TYPES)[number];

/**
 * A saved method. A card's fields are its own; an Apple Pay or Google Pay card's are the shopper's card (brand and last
 * four as the wallet shows them); a PayPal or Venmo account has no card (empty strings) but its `email` / `username`.
 */
export interface VaultedMethod {
  token: string;
  type: VaultedMethodType;
  customerId: string;
  brand: string;
  bin: string;
  lastFour: string;
  expirationMonth: string;
  expirationYear: string;
  cardholderName: string | null;
  /** The PayPal account's email; null for the others. */
  email: string | null;
  /** The Venmo username; null for the others. */
  username: string | null;
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

export type AddMethodOutcome =
  | { kind: 'saved'; method: VaultedMethod }
  | { kind: 'duplicate' }
  | { kind: 'verification_failed'; verification: VerificationFailure }
  | { kind: 'unknown_customer' }
  | { kind: 'invalid_nonce'; message: string };

export type SubscribeOutcome =
  | { kind: 'created'; subscription: GatewaySubscription }
  | { kind: 'declined'; processorResponseCode: string | null; processorResponseText: string | null };
