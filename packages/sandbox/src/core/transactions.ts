import { randomId } from './ids.ts';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Card } from './cards.ts';
import type { ThreeDSecureInfo } from './three-d-secure.ts';
import { threeDSecureApplies, type WalletAccount } from './wallets.ts';
import { APPROVED, NETWORK_UNAVAILABLE, processorDecline } from './processor-responses.ts';
import type { ProcessorResponse } from './processor-responses.ts';
import type { Collection } from '../store/store.ts';

export const TRANSACTION_STATUSES = [
  'authorizing',
  'authorized',
  'submitted_for_settlement',
  'settling',
  'settled',
  'settlement_pending',
  'settlement_confirmed',
  'settlement_declined',
  'voided',
  'authorization_expired',
  'processor_declined',
  'gateway_rejected',
  'failed',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

/** Which status may follow which; every change of status goes through `transition`. */
const TRANSITIONS: Readonly<Record<TransactionStatus, readonly TransactionStatus[]>> = {
  authorizing: ['authorized', 'processor_declined', 'gateway_rejected', 'failed'],
  authorized: ['submitted_for_settlement', 'voided', 'authorization_expired'],
  // settlement_pending and settlement_declined directly: the provider's testing calls (testing.settlementPending, ...).
  submitted_for_settlement: ['settling', 'settled', 'settlement_pending', 'settlement_declined', 'voided'],
  settling: ['settled', 'settlement_pending', 'settlement_declined'],
  settlement_pending: ['settled', 'settlement_declined'],
  settled: ['settlement_confirmed'],
  settlement_confirmed: [],
  settlement_declined: [],
  voided: [],
  authorization_expired: [],
  processor_declined: [],
  gateway_rejected: [],
  failed: [],
};

export type GatewayRejectionReason =
  | 'avs'
  | 'cvv'
  | 'avs_and_cvv'
  | 'duplicate'
  | 'fraud'
  | 'risk_threshold'
  | 'three_d_secure'
  | 'token_issuance'
  | 'application_incomplete';

export interface StatusEvent {
  status: TransactionStatus;
  amount: string;
  timestamp: Date;
}

export type TransactionType = 'sale' | 'credit';

export interface Transaction {
  id: string;
  /** A refund is a `credit` pointing at the sale it refunds (refundedTransactionId). */
  type: TransactionType;
  status: TransactionStatus;
  amount: string;
  currencyIsoCode: string;
  merchantAccountId: string;
  orderId: string | null;
  customerId: string | null;
  card: Card;
  processorResponse: ProcessorResponse | null;
  processorAuthorizationCode: string | null;
  gatewayRejectionReason: GatewayRejectionReason | null;
  deviceDataCaptured: boolean;
  /** The 3-D Secure result of the nonce charged; unset before 3-D Secure existed. */
  threeDSecureInfo?: ThreeDSecureInfo | null;
  /** The wallet account paid with (PayPal, Venmo, Apple Pay, Google Pay); unset or null for a card. */
  wallet?: WalletAccount | null;
  /** The saved card charged (by token, by a saved card's nonce, or saved by storeInVaultOnSuccess); unset before the vault existed. */
  paymentMethodToken?: string | null;
  /** Set on a subscription's charges. */
  subscriptionId?: string | null;
  planId?: string | null;
  recurring?: boolean;
  createdAt: Date;
  updatedAt: Date;
  statusHistory: StatusEvent[];
  /** Credits: the sale refunded. */
  refundedTransactionId: string | null;
  /** Sales: their refunds (credits), oldest first. */
  refundIds: string[];
  disputeIds: string[];
  /** Set when the transaction settles: the day's batch (`YYYY-MM-DD_merchantAccountId`). */
  settlementBatchId: string | null;
}

/** Fields added after the first state files were written: records from those files get them on read. */
const ADDED_FIELDS = {
  refundedTransactionId: null,
  refundIds: [],
  disputeIds: [],
  settlementBatchId: null,
} as const satisfies Partial<Transaction>;

/**
 * What a transaction operation answers, as the provider does: success; a transaction that exists but did not go
 * through (declined, rejected, failed: `success: false` with the transaction); or validation errors (nothing made).
 */
export type TransactionResult =
  | { kind: 'success'; transaction: Transaction }
  | { kind: 'unsuccessful'; transaction: Transaction; message: string }
  | { kind: 'invalid'; errors: ValidationError[]; message: string };

export interface SaleRequest {
  /** Minor units, already validated. */
  amount: number;
  card: Card;
  orderId: string | null;
  customerId: string | null;
  deviceData: boolean;
  submitForSettlement: boolean;
  threeDSecureRequired: boolean;
  /** The 3-D Secure result the nonce carries (none for tokens and subscriptions). */
  threeDSecureInfo?: ThreeDSecureInfo | null;
  wallet?: WalletAccount | null;
  paymentMethodToken: string | null;
  /** storeInVaultOnSuccess: the token (and customer) the card will be saved under if the sale is authorized. */
  vaultOnSuccess: { token: string; customerId: string } | null;
  subscription: { id: string; planId: string } | null;
  /** What the merchant's AVS/CVV rules reject this card for (verification.ts), or null. */
  rulesRejection: GatewayRejectionReason | null;
}

/** Where transaction errors nest in the wire's `<errors>`. */
export const TRANSACTION = ['transaction'] as const;
const AMOUNT_FORMAT = /^\d{1,10}(\.\d{1,2})?$/;

/** "10" -> 1000 minor units; null when the text is not an amount the provider accepts. */
export function parseAmount(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : value;
  if (typeof text !== 'string' || !AMOUNT_FORMAT.test(text)) return null;
  const [units = '0', cents = ''] = text.split('.');
  return Number(units) * 100 + Number(cents.padEnd(2, '0'));
}

export function formatAmount(minorUnits: number): string {
  return `${Math.floor(minorUnits / 100)}.${String(minorUnits % 100).padStart(2, '0')}`;
}

/** Amount validation in the provider's codes: 81502 required, 81503 format, 81531 must be greater than zero. */
export function validateAmount(value: unknown, path: readonly string[] = TRANSACTION): number | ValidationError {
  if (value === undefined || value === null || value === '') {
    return validationError(path, 'amount', '81502', 'Amount is required.');
  }
  const minorUnits = parseAmount(value);
  if (minorUnits === null) return validationError(path, 'amount', '81503', 'Amount is an invalid format.');
  if (minorUnits === 0) return validationError(path, 'amount', '81531', 'Amount must be greater than zero.');
  return minorUnits;
}

type Decision =
  | { status: 'authorized'; response: ProcessorResponse }
  | { status: 'processor_declined' | 'failed'; response: ProcessorResponse }
  | { status: 'gateway_rejected'; reason: GatewayRejectionReason };

/** The sandbox test values: the card's own behaviour first, then the amount (gateway.md). */
export function decideSale(
  minorUnits: number,
  card: Card,
  threeDSecureRequired: boolean,
  rulesRejection: GatewayRejectionReason | null = null,
): Decision {
  if (card.behaviour === 'fraud') return { status: 'gateway_rejected', reason: 'fraud' };
  if (rulesRejection !== null) return { status: 'gateway_rejected', reason: rulesRejection };
  // `threeDSecureRequired` is the merchant's demand not yet met: 3-D Secure asked for, no liability shift.
  if (threeDSecureRequired) return { status: 'gateway_rejected', reason: 'three_d_secure' };
  if (card.behaviour === 'processor_declined') return { status: 'processor_declined', response: processorDecline(2000) };
  if (card.behaviour === 'processor_failure') return { status: 'failed', response: NETWORK_UNAVAILABLE };
  if (minorUnits >= 200000 && minorUnits < 300000) {
    return { status: 'processor_declined', response: processorDecline(Math.floor(minorUnits / 100)) };
  }
  if (minorUnits >= 300000 && minorUnits < 300100) return { status: 'failed', response: NETWORK_UNAVAILABLE };
  if (minorUnits === 500100) return { status: 'gateway_rejected', reason: 'application_incomplete' };
  return { status: 'authorized', response: APPROVED };
}

function unsuccessfulMessage(transaction: Transaction): string {
  if (transaction.status === 'gateway_rejected') return `Gateway Rejected: ${transaction.gatewayRejectionReason ?? ''}`;
  return transaction.processorResponse?.text ?? 'Transaction failed.';
}

export interface TransactionsConfig {
  merchantAccountId: string;
  currencyIsoCode: string;
}

export class Transactions {
  constructor(
    private readonly records: Collection<Transaction>,
    private readonly config: TransactionsConfig,
  ) {}

  find(id: string): Transaction | undefined {
    const record = this.records.get(id);
    if (record === undefined || 'refundIds' in record) return record;
    return Object.assign(record, structuredClone(ADDED_FIELDS));
  }

  /** Saves a record changed in place (a persistent store writes it). */
  save(transaction: Transaction): void {
    this.records.set(transaction.id, transaction);
  }

  private newId(): string {
    let id: string;
    do id = randomId(8);
    while (this.records.has(id));
    return id;
  }

  /** Changes the record in place: callers `save` it afterwards so that a persistent store saves it. */
  transition(transaction: Transaction, to: TransactionStatus, now: Date): void {
    if (!TRANSITIONS[transaction.status].includes(to)) {
      throw new Error(`transaction ${transaction.id}: ${transaction.status} -> ${to} is not a transition`);
    }
    transaction.status = to;
    transaction.updatedAt = now;
    transaction.statusHistory.push({ status: to, amount: transaction.amount, timestamp: now });
  }

  sale(request: SaleRequest, now: Date): TransactionResult {
    const minorUnits = request.amount;
    const unshifted =
      request.threeDSecureRequired && threeDSecureApplies(request.wallet) && request.threeDSecureInfo?.liabilityShifted !== true;
    const decision = decideSale(minorUnits, request.card, unshifted, request.rulesRejection);
    const vaulted = decision.status === 'authorized' ? request.vaultOnSuccess : null;
    const id = this.newId();
    const transaction: Transaction = {
      id,
      type: 'sale',
      status: 'authorizing',
      amount: formatAmount(minorUnits),
      currencyIsoCode: this.config.currencyIsoCode,
      merchantAccountId: this.config.merchantAccountId,
      orderId: request.orderId,
      customerId: vaulted?.customerId ?? request.customerId,
      card: request.card,
      processorResponse: decision.status === 'gateway_rejected' ? null : decision.response,
      processorAuthorizationCode: decision.status === 'authorized' ? randomId(6).toUpperCase() : null,
      gatewayRejectionReason: decision.status === 'gateway_rejected' ? decision.reason : null,
      deviceDataCaptured: request.deviceData,
      threeDSecureInfo: request.threeDSecureInfo ?? null,
      wallet: request.wallet ?? null,
      paymentMethodToken: vaulted?.token ?? request.paymentMethodToken,
      subscriptionId: request.subscription?.id ?? null,
      planId: request.subscription?.planId ?? null,
      recurring: request.subscription !== null,
      createdAt: now,
      updatedAt: now,
      statusHistory: [],
      ...structuredClone(ADDED_FIELDS),
    };
    this.transition(transaction, decision.status, now);
    if (decision.status === 'authorized' && request.submitForSettlement) {
      this.transition(transaction, 'submitted_for_settlement', now);
    }
    this.records.set(id, transaction);
    if (decision.status !== 'authorized') {
      return { kind: 'unsuccessful', transaction, message: unsuccessfulMessage(transaction) };
    }
    return { kind: 'success', transaction };
  }

  /** authorized -> submitted_for_settlement, optionally for less than the authorized amount. */
  submitForSettlement(transaction: Transaction, amount: unknown, now: Date): TransactionResult {
    if (transaction.status !== 'authorized') {
      return invalidResult([
        validationError(TRANSACTION, 'base', '91507', 'Cannot submit for settlement unless status is authorized.'),
      ]);
    }
    if (amount !== undefined && amount !== null && amount !== '') {
      const settle = validateAmount(amount);
      if (typeof settle !== 'number') return invalidResult([settle]);
      if (settle > (parseAmount(transaction.amount) ?? 0)) {
        return invalidResult([
          validationError(TRANSACTION, 'amount', '91522', 'Settlement amount cannot be more than the authorized amount.'),
        ]);
      }
      transaction.amount = formatAmount(settle);
    }
    this.transition(transaction, 'submitted_for_settlement', now);
    this.records.set(transaction.id, transaction);
    return { kind: 'success', transaction };
  }

  /**
   * A refund: a `credit` of `minorUnits` against a settled sale, submitted for settlement at once (it settles with
   * the next batch, as the sale did). The sale lists it in `refundIds`. Rules (what may be refunded) are refunds.ts'.
   */
  credit(sale: Transaction, minorUnits: number, orderId: string | null, now: Date): Transaction {
    const id = this.newId();
    const amount = formatAmount(minorUnits);
    const credit: Transaction = {
      ...structuredClone(sale),
      ...structuredClone(ADDED_FIELDS),
      id,
      type: 'credit',
      status: 'submitted_for_settlement',
      amount,
      orderId: orderId ?? sale.orderId,
      processorResponse: APPROVED,
      processorAuthorizationCode: null,
      gatewayRejectionReason: null,
      deviceDataCaptured: false,
      createdAt: now,
      updatedAt: now,
      statusHistory: [{ status: 'submitted_for_settlement', amount, timestamp: now }],
      refundedTransactionId: sale.id,
    };
    this.records.set(id, credit);
    sale.refundIds.push(id);
    sale.updatedAt = now;
    this.records.set(sale.id, sale);
    return credit;
  }

  /** authorized or submitted_for_settlement -> voided; anything else is 91504. */
  void(transaction: Transaction, now: Date): TransactionResult {
    if (transaction.status !== 'authorized' && transaction.status !== 'submitted_for_settlement') {
      return invalidResult([
        validationError(
          TRANSACTION,
          'base',
          '91504',
          'Transaction can only be voided if status is authorized, submitted_for_settlement, or - for PayPal - settlement_pending.',
        ),
      ]);
    }
    this.transition(transaction, 'voided', now);
    this.records.set(transaction.id, transaction);
    return { kind: 'success', transaction };
  }
}

export function invalidResult(errors: ValidationError[]): TransactionResult {
  return { kind: 'invalid', errors, message: errors.map((error) => error.message).join('\n') };
}
