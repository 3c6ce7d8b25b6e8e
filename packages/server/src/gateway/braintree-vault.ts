import braintree from 'braintree';
import { cardOfNonce } from './braintree-card-lookup.ts';
import { callGateway, errorCodes } from './braintree.ts';
import type { CardDescription } from './card-lookup.ts';
import { GatewayUnavailableError } from './gateway.ts';
import { SUBSCRIPTION_STATUSES, subscriptionOrder } from './vault-gateway.ts';
import type {
  AddMethodOutcome,
  BilledSubscription,
  GatewaySubscription,
  VaultedMethod,
  SubscribeOutcome,
  SubscriptionSearchFilter,
  SubscriptionStatus,
  VaultGateway,
  VerificationFailure,
} from './vault-gateway.ts';

/**
 * gateway.md: 81724 the card is already in the vault, 81763 already saved for this customer. Cards are refused per
 * customer (`failOnDuplicatePaymentMethodForCustomer`, which @types/braintree does not declare yet): two accounts may
 * share a card (a household), one account never holds it twice.
 */
const DUPLICATE_CARD = new Set(['81724', '81763']);
/** 93105 customer unknown (paymentMethod.create). */
const UNKNOWN_CUSTOMER = '93105';
/** 81902 subscription id taken: our id is derived from the request, so a retry finds the first one. */
const SUBSCRIPTION_ID_TAKEN = '81902';

/** What the SDK's search callback is given (@types/braintree leaves it untyped): the criteria used here. */
interface SubscriptionSearch {
  status(): { in(statuses: string[]): void };
  id(): { is(id: string): void };
  createdAt(): { max(date: string): void };
}

/** The SDK's "not found" is an answer (the token or id is unknown), not an outage. */
function isNotFound(error: unknown): boolean {
  return error instanceof Error && (error as { type?: string }).type === 'notFoundError';
}

function orNull<T>(run: () => Promise<T>): Promise<T | null> {
  return callGateway(() => run().catch((error: unknown) => (isNotFound(error) ? null : Promise.reject(error))));
}

function toStatus(status: string): SubscriptionStatus {
  const known = SUBSCRIPTION_STATUSES.find((s) => s === status);
  if (known === undefined) throw new GatewayUnavailableError(`unknown subscription status ${status}`);
  return known;
}

function toSubscription(subscription: braintree.Subscription): GatewaySubscription {
  return {
    id: subscription.id,
    planId: subscription.planId,
    status: toStatus(subscription.status),
    price: subscription.price ?? subscription.nextBillAmount,
    paymentMethodToken: subscription.paymentMethodToken,
    nextBillingDate: subscription.nextBillingDate === '' ? null : (subscription.nextBillingDate ?? null),
    createdAt: subscription.createdAt,
  };
}

const NO_CARD = { brand: '', bin: '', lastFour: '', expirationMonth: '', expirationYear: '', cardholderName: null };

/** Apple Pay names its cards 'Apple Pay - Visa': the shopper's brand is after the dash. */
const APPLE_PAY_PREFIX = 'Apple Pay - ';

/**
 * A saved method as the SDK parsed it (its class says the kind: CreditCard, PayPalAccount, VenmoAccount, ApplePayCard,
 * AndroidPayCard), or null for a kind the product does not offer (Samsung Pay, Visa Checkout, ...).
 */
function toMethod(method: braintree.PaymentMethod): VaultedMethod | null {
  const common = {
    token: method.token,
    customerId: method.customerId,
    email: null,
    username: null,
    // Every offered kind has it (@types/braintree leaves it off Samsung Pay's, which is not offered).
    isDefault: 'default' in method && method.default === true,
    subscriptions: (method.subscriptions ?? []).map(toSubscription),
  };
  if (method instanceof braintree.CreditCard) {
    return {
      ...common,
      type: 'CreditCard',
      brand: method.cardType,
      bin: method.bin,
      lastFour: method.last4,
      expirationMonth: method.expirationMonth ?? '',
      expirationYear: method.expirationYear ?? '',
      cardholderName: method.cardholderName ?? null,
    };
  }
  if (method instanceof braintree.PayPalAccount) return { ...common, ...NO_CARD, type: 'PayPalAccount', email: method.email };
  if (method instanceof braintree.VenmoAccount) return { ...common, ...NO_CARD, type: 'VenmoAccount', username: method.username };
  if (method instanceof braintree.ApplePayCard) {
    const brand = method.cardType.startsWith(APPLE_PAY_PREFIX) ? method.cardType.slice(APPLE_PAY_PREFIX.length) : method.cardType;
    const card = { bin: method.bin, lastFour: method.last4, expirationMonth: method.expirationMonth ?? '' };
    return { ...common, ...card, type: 'ApplePayCard', brand, expirationYear: method.expirationYear ?? '', cardholderName: null };
  }
  if (method instanceof braintree.AndroidPayCard) {
    // The SDK's cardType / last4 are the device token's; the shopper knows the card behind it (sourceCard*).
    const card = { bin: method.bin, lastFour: method.sourceCardLast4, expirationMonth: method.expirationMonth ?? '' };
    return {
      ...common,
      ...card,
      type: 'AndroidPayCard',
      brand: method.sourceCardType,
      expirationYear: method.expirationYear ?? '',
      cardholderName: null,
    };
  }
  return null;
}

/** The methods the product offers, in the gateway's order. */
function toMethods(methods: readonly braintree.PaymentMethod[]): VaultedMethod[] {
  return methods.flatMap((method) => toMethod(method) ?? []);
}

function verificationOf(result: unknown): VerificationFailure | null {
  const verification = (result as { verification?: Record<string, unknown> }).verification;
  if (verification === undefined || verification === null) return null;
  const text = (key: string): string | null =>
    typeof verification[key] === 'string' && verification[key] !== '' ? (verification[key] as string) : null;
  return {
    status: text('status') ?? 'failed',
    processorResponseCode: text('processorResponseCode'),
    processorResponseText: text('processorResponseText'),
    gatewayRejectionReason: text('gatewayRejectionReason'),
  };
}

/** The vault and recurring billing through the official SDK. */
export class BraintreeVaultAdapter implements VaultGateway {
  readonly #client: braintree.BraintreeGateway;

  constructor(client: braintree.BraintreeGateway) {
    this.#client = client;
  }

  async listMethods(customerId: string): Promise<VaultedMethod[] | null> {
    const customer = await orNull(() => this.#client.customer.find(customerId));
    if (customer === null) return null;
    const methods = toMethods(customer.paymentMethods ?? []);
    return [...methods.filter((m) => m.isDefault), ...methods.filter((m) => !m.isDefault)];
  }

  async findMethod(token: string): Promise<VaultedMethod | null> {
    const method = await orNull(() => this.#client.paymentMethod.find(token));
    return method === null ? null : toMethod(method);
  }

  async addMethod(input: { customerId: string; nonce: string; makeDefault: boolean }): Promise<AddMethodOutcome> {
    const result = await callGateway(() =>
      this.#client.paymentMethod.create({
        customerId: input.customerId,
        paymentMethodNonce: input.nonce,
        options: { verifyCard: true, failOnDuplicatePaymentMethodForCustomer: true, makeDefault: input.makeDefault },
      } as braintree.PaymentMethodCreateRequest),
    );
    if (result.success) {
      const method = toMethod(result.paymentMethod);
      if (method === null) return { kind: 'invalid_nonce', message: 'This kind of payment method cannot be saved here.' };
      return { kind: 'saved', method };
    }
    const codes = errorCodes(result);
    if (codes.some((code) => DUPLICATE_CARD.has(code))) return { kind: 'duplicate' };
    if (codes.includes(UNKNOWN_CUSTOMER)) return { kind: 'unknown_customer' };
    const verification = verificationOf(result);
    if (verification !== null && codes.length === 0) return { kind: 'verification_failed', verification };
    return { kind: 'invalid_nonce', message: result.message };
  }

  async makeDefault(token: string): Promise<VaultedMethod> {
    const result = await callGateway(() => this.#client.paymentMethod.update(token, { options: { makeDefault: true } }));
    const method = result.success ? toMethod(result.paymentMethod) : null;
    if (method === null)
      throw new GatewayUnavailableError(`paymentMethod.update failed: ${result.success ? 'not offered' : result.message}`);
    return method;
  }

  async deleteMethod(token: string): Promise<void> {
    await callGateway(() => this.#client.paymentMethod.delete(token));
  }

  async createNonce(token: string): Promise<{ nonce: string; card: CardDescription | null }> {
    const result = await callGateway(() => this.#client.paymentMethodNonce.create(token));
    if (!result.success) throw new GatewayUnavailableError(`paymentMethodNonce.create failed: ${result.message}`);
    return { nonce: result.paymentMethodNonce.nonce, card: cardOfNonce(result.paymentMethodNonce) };
  }

  async subscribe(input: { id: string; planId: string; paymentMethodToken: string; price: string }): Promise<SubscribeOutcome> {
    const result = await callGateway(() =>
      this.#client.subscription.create({
        id: input.id,
        planId: input.planId,
        paymentMethodToken: input.paymentMethodToken,
        price: input.price,
      }),
    );
    if (result.success) return { kind: 'created', subscription: toSubscription(result.subscription) };
    if (errorCodes(result).includes(SUBSCRIPTION_ID_TAKEN)) {
      const existing = await this.findSubscription(input.id);
      if (existing !== null) return { kind: 'created', subscription: existing };
    }
    const transaction = (result as { transaction?: braintree.Transaction }).transaction;
    if (transaction === undefined) throw new GatewayUnavailableError(`subscription.create failed: ${result.message}`);
    return {
      kind: 'declined',
      processorResponseCode: transaction.processorResponseCode || null,
      processorResponseText: transaction.processorResponseText || null,
    };
  }

  async findSubscription(id: string): Promise<GatewaySubscription | null> {
    const subscription = await orNull(() => this.#client.subscription.find(id));
    return subscription === null ? null : toSubscription(subscription);
  }

  async searchSubscriptions(filter: SubscriptionSearchFilter): Promise<BilledSubscription[]> {
    const { after } = filter;
    const found: BilledSubscription[] = [];
    let oldestKept = Infinity;
    await callGateway(async () => {
      const results = this.#client.subscription.search((search: SubscriptionSearch) => {
        search.status().in(filter.status === undefined ? [...SUBSCRIPTION_STATUSES] : [filter.status]);
        if (filter.id !== undefined) search.id().is(filter.id);
        // Created up to the last one shown (a second later: the gateway's times are whole seconds); the ones at that
        // very time that were already shown are left out below.
        if (after !== undefined) search.createdAt().max(new Date(Date.parse(after.createdAt) + 1000).toISOString());
      });
      // The SDK's search streams the matches newest first, page by page: stop reading once the page is full and no
      // later match can have been created at the same time as the oldest kept (it could belong before it).
      for await (const subscription of results as AsyncIterable<braintree.Subscription>) {
        const billed = {
          ...toSubscription(subscription),
          failureCount: subscription.failureCount ?? 0,
          balance: subscription.balance,
          customerId: subscription.transactions?.find((transaction) => transaction.customer?.id)?.customer?.id ?? null,
        };
        if (after !== undefined && subscriptionOrder(after, billed) >= 0) continue;
        const createdAt = Date.parse(billed.createdAt);
        if (found.length >= filter.limit && createdAt < oldestKept) break;
        found.push(billed);
        oldestKept = Math.min(oldestKept, createdAt);
      }
    });
    return found.sort(subscriptionOrder).slice(0, filter.limit);
  }

  async cancelSubscription(id: string): Promise<GatewaySubscription> {
    const result = await callGateway(() => this.#client.subscription.cancel(id));
    if (result.success) return toSubscription(result.subscription);
    // Already canceled (81905): cancelling is idempotent for the shopper.
    const current = await this.findSubscription(id);
    if (current !== null && current.status === 'Canceled') return current;
    throw new GatewayUnavailableError(`subscription.cancel failed: ${result.message}`);
  }
}
