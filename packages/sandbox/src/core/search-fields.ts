import type { Customer } from './customers.ts';
import type { Dispute } from './disputes.ts';
import type { SearchFields } from './search.ts';
import type { Subscription } from './subscriptions.ts';
import type { Transaction } from './transactions.ts';

// What each search can filter on: the criteria a merchant's dashboard uses, named as the SDK sends them.

/** The time a transaction reached `status`, from its history (settled_at, voided_at, ...). */
function reachedAt(transaction: Transaction, status: string): Date | null {
  return transaction.statusHistory.find((event) => event.status === status)?.timestamp ?? null;
}

/** The provider matches card numbers by their known parts only: BIN (starts_with) and last four (ends_with). */
function cardNumberMatcher(criterion: unknown): ((transaction: Transaction) => boolean) | null {
  if (typeof criterion !== 'object' || criterion === null) return null;
  const { starts_with: bin, ends_with: last4, ...rest } = criterion as Record<string, unknown>;
  if (
    Object.keys(rest).length > 0 ||
    (bin !== undefined && typeof bin !== 'string') ||
    (last4 !== undefined && typeof last4 !== 'string')
  ) {
    return null;
  }
  return (transaction) =>
    (bin === undefined || (bin.length <= 6 && transaction.card.bin.startsWith(bin))) &&
    (last4 === undefined || (last4.length <= 4 && transaction.card.last4.endsWith(last4)));
}

export function transactionSearchFields(customer: (id: string) => Customer | undefined): SearchFields<Transaction> {
  const ofCustomer = (transaction: Transaction) =>
    transaction.customerId === null ? undefined : customer(transaction.customerId);
  return {
    ids: { kind: 'multiple', values: (transaction) => [transaction.id] },
    id: { kind: 'text', values: (transaction) => [transaction.id] },
    status: { kind: 'multiple', values: (transaction) => [transaction.status] },
    type: { kind: 'multiple', values: (transaction) => [transaction.type] },
    payment_instrument_type: { kind: 'multiple', values: () => ['credit_card'] },
    merchant_account_id: { kind: 'multiple', values: (transaction) => [transaction.merchantAccountId] },
    credit_card_card_type: { kind: 'multiple', values: (transaction) => [transaction.card.cardType] },
    credit_card_number: { kind: 'custom', compile: cardNumberMatcher },
    credit_card_cardholder_name: { kind: 'text', values: (transaction) => [transaction.card.cardholderName] },
    currency: { kind: 'text', values: (transaction) => [transaction.currencyIsoCode] },
    order_id: { kind: 'text', values: (transaction) => [transaction.orderId] },
    customer_id: { kind: 'text', values: (transaction) => [transaction.customerId] },
    customer_email: { kind: 'text', values: (transaction) => [ofCustomer(transaction)?.email ?? null] },
    customer_first_name: { kind: 'text', values: (transaction) => [ofCustomer(transaction)?.firstName ?? null] },
    customer_last_name: { kind: 'text', values: (transaction) => [ofCustomer(transaction)?.lastName ?? null] },
    settlement_batch_id: { kind: 'text', values: (transaction) => [transaction.settlementBatchId] },
    amount: { kind: 'amount_range', value: (transaction) => transaction.amount },
    created_at: { kind: 'date_range', value: (transaction) => transaction.createdAt, key: 'createdAt' },
    authorized_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'authorized') },
    submitted_for_settlement_at: {
      kind: 'date_range',
      value: (transaction) => reachedAt(transaction, 'submitted_for_settlement'),
    },
    settled_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'settled') },
    voided_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'voided') },
    processor_declined_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'processor_declined') },
    gateway_rejected_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'gateway_rejected') },
    failed_at: { kind: 'date_range', value: (transaction) => reachedAt(transaction, 'failed') },
    /** `refund: true`: sales that have refunds; false: sales that have none. */
    refund: { kind: 'boolean', value: (transaction) => transaction.refundIds.length > 0 },
  };
}

export const SUBSCRIPTION_SEARCH_FIELDS: SearchFields<Subscription> = {
  ids: { kind: 'multiple', values: (subscription) => [subscription.id] },
  id: { kind: 'text', values: (subscription) => [subscription.id], key: 'id' },
  status: { kind: 'multiple', values: (subscription) => [subscription.status] },
  plan_id: { kind: 'multiple_or_text', values: (subscription) => [subscription.planId] },
  merchant_account_id: { kind: 'multiple', values: (subscription) => [subscription.merchantAccountId] },
  in_trial_period: {
    kind: 'multiple',
    values: (subscription) => [String(subscription.trialPeriod && subscription.currentBillingCycle === 0)],
  },
  transaction_id: { kind: 'text', values: (subscription) => subscription.transactionIds },
  price: { kind: 'amount_range', value: (subscription) => subscription.price },
  created_at: { kind: 'date_range', value: (subscription) => subscription.createdAt, key: 'createdAt' },
  next_billing_date: { kind: 'date_range', value: (subscription) => subscription.nextBillingDate },
  days_past_due: { kind: 'number_range', value: (subscription) => subscription.daysPastDue },
  billing_cycles_remaining: {
    kind: 'number_range',
    value: (subscription) =>
      subscription.numberOfBillingCycles === null ? null : subscription.numberOfBillingCycles - subscription.currentBillingCycle,
  },
};

export const DISPUTE_SEARCH_FIELDS: SearchFields<Dispute> = {
  id: { kind: 'text', values: (dispute) => [dispute.id] },
  transaction_id: { kind: 'text', values: (dispute) => [dispute.transactionId] },
  customer_id: { kind: 'text', values: (dispute) => [dispute.customerId] },
  case_number: { kind: 'text', values: (dispute) => [dispute.caseNumber] },
  reference_number: { kind: 'text', values: (dispute) => [dispute.referenceNumber] },
  status: { kind: 'multiple', values: (dispute) => [dispute.status] },
  kind: { kind: 'multiple', values: (dispute) => [dispute.kind] },
  reason: { kind: 'multiple', values: (dispute) => [dispute.reason] },
  reason_code: { kind: 'multiple', values: (dispute) => [dispute.reasonCode] },
  merchant_account_id: { kind: 'multiple', values: (dispute) => [dispute.merchantAccountId] },
  amount_disputed: { kind: 'amount_range', value: (dispute) => dispute.amount },
  amount_won: { kind: 'amount_range', value: (dispute) => dispute.amountWon },
  received_date: { kind: 'date_range', value: (dispute) => dispute.receivedDate },
  reply_by_date: { kind: 'date_range', value: (dispute) => dispute.replyByDate },
  effective_date: { kind: 'date_range', value: (dispute) => dispute.statusHistory.at(-1)?.effectiveDate ?? null },
};
