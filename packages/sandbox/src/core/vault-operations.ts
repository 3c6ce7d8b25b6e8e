import { hasExpired } from '../rules/card-fields.ts';
import { parseExpirationDate } from './cards.ts';
import type { Card } from './cards.ts';
import type { Customer, CustomerInput, Customers } from './customers.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import type { NonceRecord, Nonces, ResolvedNonce } from './nonces.ts';
import { givenText, isTrue } from './params.ts';
import { LIVE_STATUSES } from './subscriptions.ts';
import type { Subscription, Subscriptions } from './subscriptions.ts';
import { formatAmount, parseAmount } from './transactions.ts';
import type { Transaction, Transactions } from './transactions.ts';
import type { PaymentMethods } from './vault.ts';
import type { DuplicateCheck, VaultedCard } from './vault.ts';
import { verificationMessage, verifyCard } from './verification.ts';
import type { CardRules, Verification } from './verification.ts';
import { vaultingError } from './wallets.ts';
import type { WalletAccount } from './wallets.ts';

// The vault's operations as the provider's API offers them (customer.create with a card, paymentMethod.*,
// paymentMethodNonce.create, the client API's saved methods), on top of the records in vault.ts. A wallet nonce saves
// the wallet (a PayPal billing agreement, a Venmo account, an Apple Pay or Google Pay card): no card verification and
// no duplicate check apply to it, and a one-time PayPal payment cannot be saved (82902), as on the provider.

/** What the vault operations share with the rest of the gateway. */
export interface VaultContext {
  clock: () => Date;
  customers: Customers;
  nonces: Nonces;
  paymentMethods: PaymentMethods;
  subscriptions: Subscriptions;
  transactions: Transactions;
  currencyIsoCode: string;
  merchantAccountId: string;
  rules: CardRules;
}

/** A card that failed verification: nothing saved, the verification on the result (`success: false`). */
export interface VerificationFailed {
  ok: false;
  errors: ValidationError[];
  message: string;
  verification: Verification;
}

export type VaultOutcome<T> = Outcome<T> | VerificationFailed;

export function isVerificationFailure<T>(outcome: VaultOutcome<T>): outcome is VerificationFailed {
  return !outcome.ok && 'verification' in outcome;
}

export interface SubscriptionView {
  subscription: Subscription;
  transactions: Transaction[];
}

/** A saved card with the subscriptions it pays for, as find answers it. */
export interface CardView {
  saved: VaultedCard;
  subscriptions: SubscriptionView[];
  /** Its expiry month has ended (everywhere on Earth, as the card fields judge it). */
  expired: boolean;
}

export interface CustomerView {
  customer: Customer;
  cards: CardView[];
}

/** options of customer.create's creditCard and of paymentMethod.create / update. */
export interface CardSaveOptions {
  verifyCard?: unknown;
  verificationAmount?: unknown;
  failOnDuplicatePaymentMethod?: unknown;
  failOnDuplicatePaymentMethodForCustomer?: unknown;
  makeDefault?: unknown;
}

export interface PaymentMethodParams {
  customerId?: unknown;
  paymentMethodNonce?: unknown;
  token?: unknown;
  options?: CardSaveOptions;
}

export interface CustomerParams extends CustomerInput {
  paymentMethodNonce?: unknown;
  creditCard?: { paymentMethodNonce?: unknown; token?: unknown; options?: CardSaveOptions };
}

export interface PaymentMethodUpdateParams {
  cardholderName?: unknown;
  expirationDate?: unknown;
  expirationMonth?: unknown;
  expirationYear?: unknown;
  billingAddress?: { postalCode?: unknown };
  options?: { makeDefault?: unknown; verifyCard?: unknown; verificationAmount?: unknown };
}

/** How a card is saved: the token, the duplicate check, a verification (and its amount), default or not. */
export interface SaveRequest {
  token: string | null;
  duplicates: DuplicateCheck;
  verify: boolean;
  verificationAmount: unknown;
  makeDefault: boolean;
}

/** A saved card and a single-use nonce for it (the client API's saved-methods list). */
export interface SavedMethod {
  saved: VaultedCard;
  nonce: NonceRecord;
  hasSubscription: boolean;
}

export type SavedMethodDeletion = 'deleted' | 'not_found' | 'has_subscription';

const PAYMENT_METHOD = ['payment_method'] as const;
const CREDIT_CARD = ['credit_card'] as const;
const CUSTOMER_CREDIT_CARD = ['customer', 'credit_card'] as const;

/** The provider's nonce codes differ by operation: [unknown, consumed]. */
const NONCE_CODES: Readonly<Record<string, readonly [string, string]>> = {
  payment_method: ['93108', '93107'],
  customer: ['91732', '91731'],
};

export function saveRequest(options: CardSaveOptions | undefined, token: unknown): SaveRequest {
  let duplicates: DuplicateCheck = null;
  if (isTrue(options?.failOnDuplicatePaymentMethod)) duplicates = 'vault';
  else if (isTrue(options?.failOnDuplicatePaymentMethodForCustomer)) duplicates = 'customer';
  return {
    token: givenText(token),
    duplicates,
    verify: isTrue(options?.verifyCard),
    verificationAmount: options?.verificationAmount,
    makeDefault: isTrue(options?.makeDefault),
  };
}

export class VaultOperations {
  constructor(private readonly context: VaultContext) {}

  private get paymentMethods(): PaymentMethods {
    return this.context.paymentMethods;
  }

  // --- views ---

  cardView(saved: VaultedCard): CardView {
    const subscriptions = this.context.subscriptions
      .forPaymentMethod(saved.token)
      .map((subscription) => this.subscriptionView(subscription));
    const expired = hasExpired(Number(saved.card.expirationMonth), Number(saved.card.expirationYear), this.context.clock());
    return { saved, subscriptions, expired };
  }

  subscriptionView(subscription: Subscription): SubscriptionView {
    const transactions = subscription.transactionIds
      .map((id) => this.context.transactions.find(id))
      .filter((transaction): transaction is Transaction => transaction !== undefined);
    return { subscription, transactions };
  }

  customerView(customer: Customer): CustomerView {
    return { customer, cards: this.paymentMethods.forCustomer(customer.id).map((saved) => this.cardView(saved)) };
  }

  findCustomer(id: string): CustomerView | undefined {
    const customer = this.context.customers.find(id);
    return customer === undefined ? undefined : this.customerView(customer);
  }

  findPaymentMethod(token: string): CardView | undefined {
    const saved = this.paymentMethods.find(token);
    return saved === undefined ? undefined : this.cardView(saved);
  }

  hasLiveSubscription(token: string): boolean {
    return this.context.subscriptions.forPaymentMethod(token).some((subscription) => LIVE_STATUSES.includes(subscription.status));
  }

  // --- saving a card ---

  private verify(card: Card, amount: string, paymentMethodToken: string | null, now: Date): Verification {
    const { currencyIsoCode, merchantAccountId, rules } = this.context;
    return verifyCard(card, { amount, currencyIsoCode, merchantAccountId, rules, paymentMethodToken }, now);
  }

  /**
   * Token, duplicate check, verification, then the card is saved; nothing is saved when any of them fails. A wallet
   * (`wallet` set) is saved without the card's checks, unless it cannot be saved at all.
   */
  saveCard(
    customerId: string,
    card: Card,
    request: SaveRequest,
    path: readonly string[],
    wallet: WalletAccount | null = null,
  ): VaultOutcome<VaultedCard> {
    const now = this.context.clock();
    const errors: ValidationError[] = [];
    const token = this.paymentMethods.checkToken(request.token, path);
    if (typeof token !== 'string') errors.push(token);
    const unsaveable = wallet === null ? null : vaultingError(wallet);
    if (unsaveable !== null) errors.push(unsaveable);
    const duplicate = wallet === null ? this.paymentMethods.duplicateError(card, customerId, request.duplicates, path) : null;
    if (duplicate !== null) errors.push(duplicate);
    let amount = '0.00';
    if (request.verificationAmount !== undefined && request.verificationAmount !== null && request.verificationAmount !== '') {
      const minorUnits = parseAmount(request.verificationAmount);
      if (minorUnits === null) {
        errors.push(
          validationError([...path, 'options'], 'verification_amount', '91740', 'Verification amount is an invalid format.'),
        );
      } else {
        amount = formatAmount(minorUnits);
      }
    }
    if (errors.length > 0 || typeof token !== 'string') return invalid(errors);
    let verification: Verification | null = null;
    if (request.verify && wallet === null) {
      verification = this.verify(card, amount, null, now);
      if (verification.status !== 'verified') {
        return { ok: false, errors: [], message: verificationMessage(verification), verification };
      }
    }
    const saved = this.paymentMethods.add(
      customerId,
      card,
      token,
      { makeDefault: request.makeDefault, verification, wallet },
      now,
    );
    return { ok: true, value: saved };
  }

  /** The card behind a nonce for saving, or the error in the operation's codes (`path[0]` names the operation). */
  private cardOfNonce(nonce: unknown, path: readonly string[]): ResolvedNonce | ValidationError {
    const [unknownCode, consumedCode] = NONCE_CODES[path[0] ?? ''] ?? ['93108', '93107'];
    if (typeof nonce !== 'string' || nonce === '') {
      return validationError(path, 'payment_method_nonce', '93103', 'A payment method nonce is required.');
    }
    const resolved = this.context.nonces.resolve(nonce, path, this.context.clock());
    if (!('code' in resolved)) return resolved;
    if (resolved.code === '91565')
      return validationError(path, 'payment_method_nonce', unknownCode, 'Unknown payment_method_nonce.');
    if (resolved.code === '91564')
      return validationError(path, 'payment_method_nonce', consumedCode, 'Payment method nonce has already been consumed.');
    return resolved;
  }

  createPaymentMethod(params: PaymentMethodParams): VaultOutcome<CardView> {
    const errors: ValidationError[] = [];
    const customerId = givenText(params.customerId);
    if (customerId === null) {
      errors.push(validationError(PAYMENT_METHOD, 'customer_id', '93104', 'Customer ID is required.'));
    } else if (this.context.customers.find(customerId) === undefined) {
      errors.push(validationError(PAYMENT_METHOD, 'customer_id', '93105', 'Customer ID is invalid.'));
    }
    const resolved = this.cardOfNonce(params.paymentMethodNonce, PAYMENT_METHOD);
    if ('code' in resolved) errors.push(resolved);
    if (errors.length > 0 || customerId === null || 'code' in resolved) return invalid(errors);
    const request = saveRequest(params.options, params.token);
    const outcome = this.saveCard(customerId, resolved.card, request, CREDIT_CARD, resolved.wallet);
    if (!outcome.ok) return outcome;
    this.context.nonces.consume(resolved.record);
    return { ok: true, value: this.cardView(outcome.value) };
  }

  /** customer.create, with a card when a nonce is given: nothing is stored unless both the customer and the card are. */
  createCustomer(params: CustomerParams): VaultOutcome<CustomerView> {
    const now = this.context.clock();
    const built = this.context.customers.build(params, now);
    const nonce = params.paymentMethodNonce ?? params.creditCard?.paymentMethodNonce;
    if (nonce === undefined || nonce === null || nonce === '') {
      if (!built.ok) return built;
      this.context.customers.save(built.value);
      return { ok: true, value: this.customerView(built.value) };
    }
    const resolved = this.cardOfNonce(nonce, CUSTOMER_CREDIT_CARD);
    const errors = [...(built.ok ? [] : built.errors), ...('code' in resolved ? [resolved] : [])];
    if (errors.length > 0 || !built.ok || 'code' in resolved) return invalid(errors);
    const request = saveRequest(params.creditCard?.options, params.creditCard?.token);
    const outcome = this.saveCard(built.value.id, resolved.card, request, CUSTOMER_CREDIT_CARD, resolved.wallet);
    if (!outcome.ok) return outcome;
    this.context.nonces.consume(resolved.record);
    this.context.customers.save(built.value);
    return { ok: true, value: this.customerView(built.value) };
  }

  updateCustomer(id: string, params: CustomerInput): Outcome<CustomerView> | null {
    const customer = this.context.customers.find(id);
    if (customer === undefined) return null;
    const outcome = this.context.customers.update(customer, params, this.context.clock());
    return outcome.ok ? { ok: true, value: this.customerView(outcome.value) } : outcome;
  }

  /** As on the provider, a customer's cards go with it, and their subscriptions are canceled. */
  deleteCustomer(id: string): boolean {
    if (this.context.customers.find(id) === undefined) return false;
    for (const saved of this.paymentMethods.forCustomer(id)) this.deletePaymentMethod(saved.token);
    return this.context.customers.delete(id);
  }

  /** paymentMethod.update: default, cardholder name, expiry, postal code; re-verified first when asked. */
  updatePaymentMethod(token: string, params: PaymentMethodUpdateParams): VaultOutcome<CardView> | null {
    const saved = this.paymentMethods.find(token);
    if (saved === undefined) return null;
    const now = this.context.clock();
    const errors: ValidationError[] = [];
    const card: Card = { ...saved.card };
    const cardholderName = givenText(params.cardholderName);
    if (cardholderName !== null) {
      if (cardholderName.length >= 256)
        errors.push(validationError(CREDIT_CARD, 'cardholder_name', '81723', 'Cardholder name is too long.'));
      else card.cardholderName = cardholderName;
    }
    const month = givenText(params.expirationMonth);
    const year = givenText(params.expirationYear);
    const expiration = givenText(params.expirationDate) ?? (month !== null && year !== null ? `${month}/${year}` : null);
    if (expiration !== null) {
      const expiry = parseExpirationDate(expiration, now);
      if ('code' in expiry) errors.push(expiry);
      else Object.assign(card, { expirationMonth: expiry.month, expirationYear: expiry.year });
    }
    const postalCode = givenText(params.billingAddress?.postalCode);
    if (postalCode !== null) {
      card.postalCode = postalCode;
      card.postalCodeResponseCode = postalCode === '20000' ? 'N' : 'M';
    }
    if (errors.length > 0) return invalid(errors);
    if (isTrue(params.options?.verifyCard)) {
      const verification = this.verify(card, '0.00', token, now);
      if (verification.status !== 'verified') {
        return { ok: false, errors: [], message: verificationMessage(verification), verification };
      }
      saved.verification = verification;
    }
    saved.card = card;
    this.paymentMethods.save(saved, now);
    if (isTrue(params.options?.makeDefault)) this.paymentMethods.makeDefault(saved, now);
    return { ok: true, value: this.cardView(saved) };
  }

  /** As on the provider, deleting a card cancels its subscriptions (the product refuses before asking). */
  deletePaymentMethod(token: string): boolean {
    const now = this.context.clock();
    for (const subscription of this.context.subscriptions.forPaymentMethod(token)) {
      this.context.subscriptions.cancel(subscription, now);
    }
    return this.paymentMethods.delete(token, now);
  }

  /** paymentMethodNonce.find. */
  findNonce(nonce: string): NonceRecord | null {
    return this.context.nonces.describe(nonce, this.context.clock());
  }

  /** A single-use nonce standing for a saved method (a wallet's carries its account). */
  private issueNonce(saved: VaultedCard, now: number): NonceRecord {
    return this.context.nonces.issue(saved.card, saved.customerId, now, saved.token, null, saved.wallet ?? null);
  }

  /** paymentMethodNonce.create: a single-use nonce for a saved method; null when there is no such method. */
  createNonce(token: string): NonceRecord | null {
    const saved = this.paymentMethods.find(token);
    return saved === undefined ? null : this.issueNonce(saved, this.context.clock().getTime());
  }

  // --- the client API's saved methods (customer-bound client tokens) ---

  /** The customer's saved cards, the default first, each with a fresh single-use nonce. */
  savedMethods(customerId: string): SavedMethod[] {
    const now = this.context.clock().getTime();
    const saved = this.paymentMethods.forCustomer(customerId);
    const ordered = [...saved.filter((card) => card.isDefault), ...saved.filter((card) => !card.isDefault)];
    return ordered.map((card) => ({
      saved: card,
      nonce: this.issueNonce(card, now),
      hasSubscription: this.hasLiveSubscription(card.token),
    }));
  }

  /**
   * Deletes the saved card a nonce stands for, only for its own customer (another customer's card is "not found").
   * A card that pays for a live subscription is refused: the product enforces it (the provider would cancel them).
   */
  deleteSavedMethod(customerId: string, nonce: string): SavedMethodDeletion {
    const record = this.context.nonces.resolve(nonce, [], this.context.clock());
    const token = 'code' in record ? null : (record.record?.paymentMethodToken ?? null);
    const saved = token === null ? undefined : this.paymentMethods.find(token);
    if (saved === undefined || saved.customerId !== customerId) return 'not_found';
    if (this.hasLiveSubscription(saved.token)) return 'has_subscription';
    this.paymentMethods.delete(saved.token, this.context.clock());
    return 'deleted';
  }
}
