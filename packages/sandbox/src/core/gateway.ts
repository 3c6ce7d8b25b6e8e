import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { validateCard } from './cards.ts';
import type { Card, CardInput } from './cards.ts';
import { buildClientToken, encodeClientToken } from './client-token.ts';
import { cardinalAuthenticationJwt } from './cardinal-jwt.ts';
import { Customers } from './customers.ts';
import type { Customer } from './customers.ts';
import { DeviceData } from './device-data.ts';
import type { DeviceSession, TransactionDeviceData } from './device-data.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import { FINGERPRINT_LIFETIME_MS, issueFingerprint, verifyFingerprint } from './fingerprint.ts';
import type { Authorization, SaveCardOptions } from './fingerprint.ts';
import { IdempotencyKeys } from './idempotency.ts';
import type { IdempotencyRecord } from './idempotency.ts';
import { clientConfiguration, DEFAULT_MERCHANT_SETTINGS } from './merchant-settings.ts';
import type { ClientConfiguration, MerchantSettings } from './merchant-settings.ts';
import { Nonces } from './nonces.ts';
import type { NonceRecord } from './nonces.ts';
import type { ThreeDSecureInfo } from './three-d-secure.ts';
import { ThreeDSecureOperations } from './three-d-secure-operations.ts';
import { WalletApprovals } from './wallet-approvals.ts';
import { vaultingError } from './wallets.ts';
import type { WalletAccount } from './wallets.ts';
import { givenText, isTrue } from './params.ts';
import { buildPlan, DEMO_PLANS } from './plans.ts';
import type { PlanConfig } from './plans.ts';
import { SubscriptionOperations } from './subscription-operations.ts';
import { SUBSCRIPTION_KEYS, Subscriptions } from './subscriptions.ts';
import type { Subscription } from './subscriptions.ts';
import { invalidResult, TRANSACTION, Transactions, validateAmount } from './transactions.ts';
import type { Transaction, TransactionResult } from './transactions.ts';
import { PaymentMethods } from './vault.ts';
import type { VaultedCard } from './vault.ts';
import { saveRequest, VaultOperations } from './vault-operations.ts';
import type { VaultOutcome } from './vault-operations.ts';
import { NO_CARD_RULES, rulesRejection } from './verification.ts';
import type { CardRules } from './verification.ts';
import { SandboxClock } from './clock.ts';
import { DueQueue } from './due-queue.ts';
import { watchCollection } from './watched-collection.ts';
import { Billing } from './billing.ts';
import { Disputes } from './disputes.ts';
import type { Dispute, DisputeEvidence, TextEvidenceParams } from './disputes.ts';
import { DocumentUploads } from './document-uploads.ts';
import type { DocumentUpload, DocumentUploadParams } from './document-uploads.ts';
import { compileSearch, runSearch } from './search.ts';
import type { SearchFields } from './search.ts';
import { DISPUTE_SEARCH_FIELDS, SUBSCRIPTION_SEARCH_FIELDS, transactionSearchFields } from './search-fields.ts';
import type { DueRecord } from './due-queue.ts';
import type { EventSink } from './events.ts';
import { refund } from './refunds.ts';
import type { RefundParams } from './refunds.ts';
import { DAILY_BATCH, Settlement } from './settlement.ts';
import type { SettlementSimulation, SettlementTiming } from './settlement.ts';
import type { Collection, Store } from '../store/store.ts';

export interface Credentials {
  merchantId: string;
  publicKey: string;
  privateKey: string;
}

export interface GatewayOptions extends Credentials {
  store: Store;
  /**
   * Keys the card number identifiers (uniqueNumberIdentifier). Unset: a random key of this process only. Never
   * written anywhere by the sandbox: see cardIdentifierKey().
   */
  cardIdentifierSecret?: string;
  /** The merchant account's currency (the provider ties it to the merchant account, not to the request). */
  currencyIsoCode?: string;
  /** The recurring billing plans (plan.all); DEMO_PLANS when unset. */
  plans?: readonly PlanConfig[];
  /** The merchant's AVS/CVV rules, applied to verifications and sales; off when unset. */
  cardRules?: CardRules;
  /** Challenges, 3-D Secure, wallets; a fresh provider sandbox account's by default. */
  settings?: MerchantSettings;
  /** The machine's clock (tests inject one); the sandbox's time is this plus what `advanceClock` added. */
  clock?: () => Date;
  /** When submitted transactions settle by themselves; the provider's daily batch by default. */
  settlement?: SettlementTiming;
  /** Hears what a merchant is told by webhook (webhooks/ signs and posts it); nothing by default. */
  events?: EventSink;
}

/** transaction.sale's parameters, camelCased from the wire. Values are unchecked: the gateway validates them. */
export interface SaleParams {
  amount?: unknown;
  paymentMethodNonce?: unknown;
  paymentMethodToken?: unknown;
  customerId?: unknown;
  deviceData?: unknown;
  orderId?: unknown;
  options?:
    | {
        submitForSettlement?: unknown;
        storeInVaultOnSuccess?: unknown;
        threeDSecure?: { required?: unknown } | undefined;
      }
    | undefined;
}

/** What a sale charges: the card, the nonce used (if any), the saved card (if any), its 3-D Secure result. */
interface PaymentSource {
  card: Card;
  record: NonceRecord | null;
  saved: VaultedCard | null;
  threeDSecureInfo: ThreeDSecureInfo | null;
  wallet: WalletAccount | null;
}

/**
 * The key that signs client token fingerprints, derived from the merchant's private key: the same credentials give
 * the same key after a restart, so client tokens already handed out stay valid.
 */
function deriveFingerprintKey(credentials: Credentials): Buffer {
  return createHmac('sha256', credentials.privateKey).update(`kassa-sandbox/fingerprint/${credentials.merchantId}`).digest();
}

/**
 * The key of the card number identifiers. The state file keeps BIN and last four beside each identifier, so only six
 * digits are unknown (about 100,000 Luhn-valid candidates): a key anyone with the disk could compute would let them
 * try every candidate and get the number back in a fraction of a second. So the key is never derived from what is on
 * disk (the private key is, in npm start's credentials file): it is random per process unless the merchant passes a
 * secret kept elsewhere (an environment variable from a secret store) to keep identifiers stable across restarts.
 */
function cardIdentifierKey(secret: string | undefined): Buffer {
  if (secret === undefined) return randomBytes(32);
  return createHmac('sha256', secret).update('kassa-sandbox/card-number-identifier').digest();
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The sandbox gateway's state and rules, with no HTTP: the wire faces in server-api/ and client-api/ call this. */
export class SandboxGateway {
  readonly credentials: Credentials;
  /** Set once the HTTP server listens: client tokens carry absolute URLs. */
  origin = '';
  /** Replaced whole when a test changes them (test controls); read at every configuration request. */
  settings: MerchantSettings;
  private readonly currencyIsoCode: string;
  /** Signs the authorization fingerprints of client tokens. */
  private readonly fingerprintKey: Buffer;
  /** Keys the hash that stands in for card numbers (uniqueNumberIdentifier); held in memory only. */
  private readonly cardNumberKey: Buffer;
  /** Signs the configuration's Cardinal JWTs (cardinal-jwt.ts); random per process, held in memory only. */
  private readonly cardinalKey = randomBytes(32);
  private readonly store: Store;
  private readonly time: SandboxClock;
  private readonly clock: () => Date;
  private readonly nonces: Nonces;
  private readonly customers: Customers;
  private readonly transactions: Transactions;
  private readonly idempotency: IdempotencyKeys;
  private readonly paymentMethods: PaymentMethods;
  private readonly cardRules: CardRules;
  /** customer.* with cards, paymentMethod.*, paymentMethodNonce.create, the client API's saved methods. */
  readonly vault: VaultOperations;
  /** plan.all, subscription.*. */
  readonly subscriptions: SubscriptionOperations;
  /** The browser's 3-D Secure 2 lookup and challenge. */
  readonly threeDSecure: ThreeDSecureOperations;
  /** The wallets' approval pages and the nonces they hand out. */
  readonly walletApprovals: WalletApprovals;
  /** Device sessions from the collector page, and the device data each sale carried. */
  readonly deviceData: DeviceData;
  private readonly settlement: Settlement;
  private readonly billing: Billing;
  private readonly disputes: Disputes;
  private readonly documentUploads: DocumentUploads;
  private readonly transactionRecords: Collection<Transaction>;
  private readonly subscriptionRecords: Collection<Subscription>;
  private readonly disputeRecords: Collection<Dispute>;

  constructor(options: GatewayOptions) {
    this.credentials = { merchantId: options.merchantId, publicKey: options.publicKey, privateKey: options.privateKey };
    this.time = new SandboxClock(options.clock ?? (() => new Date()), options.store.collection('clock'));
    this.clock = () => this.time.now();
    this.settings = options.settings ?? DEFAULT_MERCHANT_SETTINGS;
    const currencyIsoCode = options.currencyIsoCode ?? 'USD';
    this.currencyIsoCode = currencyIsoCode;
    this.fingerprintKey = deriveFingerprintKey(this.credentials);
    this.cardNumberKey = cardIdentifierKey(options.cardIdentifierSecret);
    this.store = options.store;
    this.nonces = new Nonces(options.store);
    this.customers = new Customers(options.store.collection<Customer>('customers'));
    // Searches read the collections directly (by the ids given, a key, or in order: search.ts's plan).
    this.transactionRecords = options.store.collection<Transaction>('transactions', {
      createdAt: (transaction) => transaction.createdAt.getTime(),
    });
    this.subscriptionRecords = options.store.collection<Subscription>('subscriptions', SUBSCRIPTION_KEYS);
    this.disputeRecords = options.store.collection<Dispute>('disputes');
    this.transactions = new Transactions(
      watchCollection(this.transactionRecords, (record) => this.settlement.observe(record)),
      {
        merchantAccountId: options.merchantId,
        currencyIsoCode,
      },
    );
    this.idempotency = new IdempotencyKeys(options.store.collection<IdempotencyRecord>('api-request-keys'));
    this.paymentMethods = new PaymentMethods(options.store);
    this.cardRules = options.cardRules ?? NO_CARD_RULES;
    const context = {
      clock: this.clock,
      customers: this.customers,
      nonces: this.nonces,
      paymentMethods: this.paymentMethods,
      subscriptions: new Subscriptions(watchCollection(this.subscriptionRecords, (record) => this.billing.observe(record))),
      transactions: this.transactions,
      currencyIsoCode,
      merchantAccountId: options.merchantId,
      rules: this.cardRules,
    };
    this.vault = new VaultOperations(context);
    this.deviceData = new DeviceData(
      options.store.collection<DeviceSession>('device-sessions'),
      options.store.collection<TransactionDeviceData>('transaction-device-data'),
    );
    const browserFlows = { nonces: this.nonces, clock: this.clock, settings: () => this.settings, currencyIsoCode };
    this.threeDSecure = new ThreeDSecureOperations(browserFlows);
    this.walletApprovals = new WalletApprovals(browserFlows);
    const plans = (options.plans ?? DEMO_PLANS).map((plan) => buildPlan(plan, currencyIsoCode));
    this.subscriptions = new SubscriptionOperations(context, this.vault, new Map(plans.map((plan) => [plan.id, plan])));
    const events = options.events ?? (() => {});
    this.settlement = new Settlement(
      this.transactions,
      new DueQueue<DueRecord>(options.store, 'settlement-queue'),
      options.settlement ?? DAILY_BATCH,
      events,
    );
    this.disputes = new Disputes(this.disputeRecords, events);
    this.documentUploads = new DocumentUploads(options.store.collection<DocumentUpload>('document-uploads'));
    this.billing = new Billing(
      {
        subscriptions: context.subscriptions,
        chargePeriod: (subscription, start, now) => this.subscriptions.chargePeriod(subscription, start, now),
        view: (subscription) => this.vault.subscriptionView(subscription),
        events,
      },
      new DueQueue<DueRecord>(options.store, 'billing-queue'),
      options.store.collection('subscription-status-seen'),
    );
  }

  // --- the sandbox's time and the work that falls due with it ---

  now(): Date {
    return this.clock();
  }

  /** The test control: moves the sandbox's time forward and runs what fell due. Answers the new time. */
  advanceClock(ms: number): Date {
    this.time.advance(ms);
    this.runDueWork();
    return this.clock();
  }

  /**
   * Runs what is due at the sandbox's time (billing, then settlement batches), a part at a time until nothing is due;
   * by a timer and after `advanceClock`. Between parts the store may write what changed (a large batch is not held
   * in memory whole; each part ends between two transactions or subscriptions, never inside one's change).
   */
  runDueWork(): void {
    const now = this.clock();
    for (;;) {
      const billed = this.billing.runDue(now);
      const settled = this.settlement.runDue(now);
      if (!billed && !settled) return;
      this.store.checkpoint();
    }
  }

  authenticate(publicKey: string, privateKey: string): boolean {
    // Both compared, always, so timing does not tell which one was wrong.
    const publicOk = sameSecret(publicKey, this.credentials.publicKey);
    const privateOk = sameSecret(privateKey, this.credentials.privateKey);
    return publicOk && privateOk;
  }

  // --- client tokens and the browser's authorization ---

  generateClientToken(params: { customerId?: unknown; options?: Record<string, unknown> }): Outcome<string> {
    let customerId: string | null = null;
    if (params.customerId !== undefined && params.customerId !== null && params.customerId !== '') {
      customerId = String(params.customerId);
      if (this.customers.find(customerId) === undefined) {
        return invalid([
          validationError(['client_token'], 'customer_id', '92804', 'Customer specified by customer_id does not exist'),
        ]);
      }
    }
    const saveCard: SaveCardOptions = {
      verifyCard: isTrue(params.options?.['verifyCard']),
      failOnDuplicatePaymentMethod: isTrue(params.options?.['failOnDuplicatePaymentMethod']),
      failOnDuplicatePaymentMethodForCustomer: isTrue(params.options?.['failOnDuplicatePaymentMethodForCustomer']),
      makeDefault: isTrue(params.options?.['makeDefault']),
    };
    const expiresAt = this.clock().getTime() + FINGERPRINT_LIFETIME_MS;
    const fingerprint = issueFingerprint(this.fingerprintKey, {
      merchantId: this.credentials.merchantId,
      customerId,
      expiresAt,
      // How the browser saves a card for the token's customer (the SDK refuses these options without a customer).
      ...(customerId === null ? {} : { saveCard }),
    });
    return { ok: true, value: encodeClientToken(buildClientToken(this.origin, this.credentials.merchantId, fingerprint)) };
  }

  /** The authorization behind a browser's fingerprint, or null (malformed, forged, expired, other merchant). */
  authorize(fingerprint: unknown): Authorization | null {
    const authorization = verifyFingerprint(this.fingerprintKey, fingerprint, this.clock().getTime());
    return authorization?.merchantId === this.credentials.merchantId ? authorization : null;
  }

  configuration(): ClientConfiguration {
    const { origin, currencyIsoCode } = this;
    const { merchantId } = this.credentials;
    const cardinalJwt = (): string => cardinalAuthenticationJwt(this.cardinalKey, merchantId, this.clock());
    return clientConfiguration(this.settings, { origin, merchantId, currencyIsoCode, cardinalJwt });
  }

  tokenizeCard(authorization: Authorization, input: CardInput): Outcome<NonceRecord> {
    const now = this.clock();
    const card = validateCard(input, this.cardNumberKey, now);
    if (!card.ok) return card;
    return { ok: true, value: this.nonces.issue(card.value, authorization.customerId, now.getTime()) };
  }

  /**
   * The client API's "save card" (`creditCard.options.validate`): tokenizes the card and saves it for the token's
   * customer as the token's options say (verification, duplicate check, default). The nonce stands for the saved card.
   */
  tokenizeAndSaveCard(authorization: Authorization & { customerId: string }, input: CardInput): VaultOutcome<NonceRecord> {
    const now = this.clock();
    const card = validateCard(input, this.cardNumberKey, now);
    if (!card.ok) return card;
    const { customerId } = authorization;
    if (this.customers.find(customerId) === undefined) {
      return invalid([validationError(['credit_card'], 'customer_id', '91705', 'Customer ID is invalid.')]);
    }
    const saved = this.vault.saveCard(customerId, card.value, saveRequest(authorization.saveCard, null), ['credit_card']);
    if (!saved.ok) return saved;
    return { ok: true, value: this.nonces.issue(saved.value.card, customerId, now.getTime(), saved.value.token) };
  }

  // --- customers ---

  findCustomer(id: string): Customer | undefined {
    return this.customers.find(id);
  }

  // --- transactions ---

  findTransaction(id: string): Transaction | undefined {
    return this.transactions.find(id);
  }

  sale(params: SaleParams, apiRequestKey: string | null): TransactionResult {
    const outcome = this.idempotency.run(apiRequestKey, { operation: 'sale', params }, TRANSACTION, () => this.runSale(params));
    return outcome.kind === 'conflict' ? invalidResult([outcome.error]) : outcome.result;
  }

  private runSale(params: SaleParams): TransactionResult {
    const now = this.clock();
    const errors: ValidationError[] = [];
    const amount = validateAmount(params.amount);
    if (typeof amount !== 'number') errors.push(amount);

    let customerId: string | null = null;
    if (params.customerId !== undefined && params.customerId !== null && params.customerId !== '') {
      customerId = String(params.customerId);
      if (this.customers.find(customerId) === undefined) {
        errors.push(validationError(TRANSACTION, 'customer_id', '91510', 'Customer ID is invalid.'));
      }
    }

    let orderId: string | null = null;
    if (params.orderId !== undefined && params.orderId !== null && params.orderId !== '') {
      orderId = String(params.orderId);
      if (orderId.length > 255) errors.push(validationError(TRANSACTION, 'order_id', '91501', 'Order ID is too long.'));
    }

    const source = this.paymentSource(params, now);
    if ('code' in source) errors.push(source);
    else if (source.saved !== null && customerId !== null && source.saved.customerId !== customerId) {
      errors.push(validationError(TRANSACTION, 'customer_id', '91516', 'Payment method does not belong to the customer.'));
    }

    if (errors.length > 0 || 'code' in source || typeof amount !== 'number') {
      return invalidResult(errors);
    }
    // storeInVaultOnSuccess: the card is saved (for a new customer when none is given) only if the sale goes through;
    // a wallet that cannot be saved (a one-time PayPal payment) refuses the sale, as on the provider.
    const storing = source.saved === null && isTrue(params.options?.storeInVaultOnSuccess);
    const unsaveable = storing && source.wallet !== null ? vaultingError(source.wallet) : null;
    if (unsaveable !== null) return invalidResult([unsaveable]);
    this.nonces.consume(source.record);
    customerId ??= source.saved?.customerId ?? null;
    const newCustomer = storing && customerId === null ? this.customers.blank(now) : null;
    const owner = customerId ?? newCustomer?.id ?? null;
    const vaultOnSuccess = storing && owner !== null ? { token: this.paymentMethods.freshToken(), customerId: owner } : null;
    const deviceData = typeof params.deviceData === 'string' && params.deviceData !== '' ? params.deviceData : null;
    const result = this.transactions.sale(
      {
        amount,
        card: source.card,
        orderId,
        customerId,
        deviceData: deviceData !== null,
        submitForSettlement: isTrue(params.options?.submitForSettlement),
        threeDSecureRequired: isTrue(params.options?.threeDSecure?.required),
        threeDSecureInfo: source.threeDSecureInfo,
        wallet: source.wallet,
        paymentMethodToken: source.saved?.token ?? null,
        vaultOnSuccess,
        subscription: null,
        rulesRejection: rulesRejection(source.card, this.cardRules),
      },
      now,
    );
    if (result.kind !== 'invalid') {
      this.deviceData.recordSale(result.transaction.id, deviceData, source.record?.threeDSecureBrowser ?? null, now);
    }
    if (result.kind === 'success' && vaultOnSuccess !== null) {
      if (newCustomer !== null) this.customers.save(newCustomer);
      this.paymentMethods.add(
        vaultOnSuccess.customerId,
        source.card,
        vaultOnSuccess.token,
        { makeDefault: false, verification: null, wallet: source.wallet },
        now,
      );
    }
    if (result.kind === 'success' && source.card.behaviour === 'chargeback') this.chargeback(result.transaction, now);
    return result;
  }

  /** The dispute test card: the sale is settled at once and gets an open chargeback, as on the provider's sandbox. */
  private chargeback(sale: Transaction, now: Date): void {
    if (sale.status === 'authorized') this.transactions.submitForSettlement(sale, undefined, now);
    this.settlement.simulate(sale, 'settle', now);
    const dispute = this.disputes.openChargeback(sale, now);
    sale.disputeIds.push(dispute.id);
    this.transactions.save(sale);
  }

  /** The card a sale charges: a nonce (perhaps of a saved card), or a saved card's token. */
  private paymentSource(params: SaleParams, now: Date): PaymentSource | ValidationError {
    const nonce = givenText(params.paymentMethodNonce);
    if (nonce !== null) {
      const resolved = this.nonces.resolve(nonce, TRANSACTION, now);
      if ('code' in resolved) return resolved;
      const token = resolved.record?.paymentMethodToken ?? null;
      if (token === null) return { ...resolved, saved: null };
      const saved = this.paymentMethods.find(token);
      // The saved card was deleted since the nonce was made: the nonce is as good as unknown.
      if (saved === undefined)
        return validationError(TRANSACTION, 'payment_method_nonce', '91565', 'Unknown or expired payment_method_nonce.');
      const { threeDSecureInfo } = resolved;
      return { card: saved.card, record: resolved.record, saved, threeDSecureInfo, wallet: saved.wallet ?? null };
    }
    const token = givenText(params.paymentMethodToken);
    if (token === null) return validationError(TRANSACTION, 'base', '91508', 'Cannot determine payment method.');
    const saved = this.paymentMethods.find(token);
    if (saved === undefined)
      return validationError(TRANSACTION, 'payment_method_token', '91518', 'Payment method token is invalid.');
    return { card: saved.card, record: null, saved, threeDSecureInfo: null, wallet: saved.wallet ?? null };
  }

  /** null when there is no such transaction (the wire answers 404). */
  submitForSettlement(id: string, amount: unknown, apiRequestKey: string | null): TransactionResult | null {
    const transaction = this.transactions.find(id);
    if (transaction === undefined) return null;
    const outcome = this.idempotency.run(apiRequestKey, { operation: 'submit_for_settlement', id, amount }, TRANSACTION, () =>
      this.transactions.submitForSettlement(transaction, amount, this.clock()),
    );
    return outcome.kind === 'conflict' ? invalidResult([outcome.error]) : outcome.result;
  }

  void(id: string, apiRequestKey: string | null): TransactionResult | null {
    const transaction = this.transactions.find(id);
    if (transaction === undefined) return null;
    const outcome = this.idempotency.run(apiRequestKey, { operation: 'void', id }, TRANSACTION, () =>
      this.transactions.void(transaction, this.clock()),
    );
    return outcome.kind === 'conflict' ? invalidResult([outcome.error]) : outcome.result;
  }

  /** A refund of a settled sale (a new credit transaction, which settles with its batch); null: no such sale. */
  refund(id: string, params: RefundParams, apiRequestKey: string | null): TransactionResult | null {
    const sale = this.transactions.find(id);
    if (sale === undefined) return null;
    const request = { operation: 'refund', id, amount: params.amount ?? null, orderId: params.orderId ?? null };
    const outcome = this.idempotency.run(apiRequestKey, request, TRANSACTION, () =>
      refund(sale, params, this.transactions, this.clock()),
    );
    return outcome.kind === 'conflict' ? invalidResult([outcome.error]) : outcome.result;
  }

  /** The provider's testing calls (settle, settlement_decline, ...); null: no such transaction. */
  simulateSettlement(id: string, simulation: SettlementSimulation): TransactionResult | null {
    const transaction = this.transactions.find(id);
    if (transaction === undefined) return null;
    return this.settlement.simulate(transaction, simulation, this.clock());
  }

  // --- disputes ---

  findDispute(id: string): Dispute | undefined {
    return this.disputes.find(id);
  }

  /** null: no such dispute. */
  acceptDispute(id: string): Outcome<Dispute> | null {
    const dispute = this.disputes.find(id);
    return dispute === undefined ? null : this.disputes.accept(dispute, this.clock());
  }

  /** Text evidence, or a document uploaded before when `documentUploadId` is given (the SDK's addFileEvidence). */
  addDisputeEvidence(id: string, params: TextEvidenceParams & { documentUploadId?: unknown }): Outcome<DisputeEvidence> | null {
    const dispute = this.disputes.find(id);
    if (dispute === undefined) return null;
    if (params.documentUploadId === undefined) return this.disputes.addTextEvidence(dispute, params, this.clock());
    const upload = typeof params.documentUploadId === 'string' ? this.documentUploads.find(params.documentUploadId) : undefined;
    return this.disputes.addFileEvidence(dispute, upload, params.category, this.clock());
  }

  createDocumentUpload(params: DocumentUploadParams): Outcome<DocumentUpload> {
    return this.documentUploads.create(params, this.clock());
  }

  removeDisputeEvidence(id: string, evidenceId: string): Outcome<boolean> | null {
    const dispute = this.disputes.find(id);
    return dispute === undefined ? null : this.disputes.removeEvidence(dispute, evidenceId, this.clock());
  }

  finalizeDispute(id: string): Outcome<Dispute> | null {
    const dispute = this.disputes.find(id);
    return dispute === undefined ? null : this.disputes.finalize(dispute, this.clock());
  }

  // --- searches (transaction.search, subscription.search, dispute.search) ---

  /** The ids of the matching transactions, newest first. */
  searchTransactions(criteria: unknown): SearchOutcome {
    const fields = transactionSearchFields((customerId) => this.customers.find(customerId));
    return search(fields, criteria, this.transactionRecords);
  }

  searchSubscriptions(criteria: unknown): SearchOutcome {
    return search(SUBSCRIPTION_SEARCH_FIELDS, criteria, this.subscriptionRecords);
  }

  searchDisputes(criteria: unknown): SearchOutcome {
    return search(DISPUTE_SEARCH_FIELDS, criteria, this.disputeRecords);
  }
}

export type SearchOutcome = { ok: true; ids: string[] } | { ok: false; problem: string };

function search<T extends { id: string; createdAt: Date }>(
  fields: SearchFields<T>,
  criteria: unknown,
  records: Collection<T>,
): SearchOutcome {
  const compiled = compileSearch(fields, criteria);
  if (!compiled.ok) return compiled;
  return {
    ok: true,
    ids: runSearch(compiled, {
      byId: (id) => records.get(id),
      withKey: (key, value) => records.withKey(key, value),
      *inRange(key, min, max) {
        for (const { id } of records.byKey(key, { min, max })) {
          const record = records.get(id);
          if (record !== undefined) yield record;
        }
      },
      all: () => records.inOrder(),
    }),
  };
}
