import type { Db } from '../db/connect.ts';
import { toDecimalString } from '../money.ts';
import { listPayments } from './payments.query.ts';
import type { AdminPayment, PaymentsFilter } from './payments.query.ts';

const COLUMNS = [
  'id',
  'created_at',
  'status',
  'amount',
  'currency',
  'order_number',
  'customer_email',
  'payment_method_type',
  'card_brand',
  'card_last_four',
  'transaction_id',
  'settlement_status',
  'decline_reason',
  'processor_response',
] as const;

function row(payment: AdminPayment): string[] {
  return [
    payment.id,
    payment.createdAt,
    payment.status,
    toDecimalString(payment.amount),
    payment.amount.currency,
    String(payment.order.number),
    payment.customer?.email ?? '',
    payment.paymentMethodType ?? '',
    payment.card?.brand ?? '',
    payment.card?.lastFour ?? '',
    payment.transactionId ?? '',
    payment.settlementStatus ?? '',
    payment.decline?.reason ?? '',
    payment.decline?.processorResponseText ?? '',
  ];
}

/**
 * One CSV cell (RFC 4180 quoting). A cell a spreadsheet would run as a formula (=, +, -, @, tab, CR first: an email
 * can start with any of them) gets a leading apostrophe, so opening the export never runs what a shopper typed.
 */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

const line = (cells: readonly string[]) => `${cells.map(csvCell).join(',')}\r\n`;

/**
 * Every payment the filter matches, as CSV lines (header first), read page by page over the list's keyset so the
 * export streams in constant memory however many rows match. Amounts are decimal strings in the currency's digits,
 * as a spreadsheet reads them.
 */
export async function* paymentsCsv(
  db: Db,
  filter: Omit<PaymentsFilter, 'after' | 'limit'>,
  pageSize = 500,
): AsyncGenerator<string> {
  yield line(COLUMNS);
  let after: PaymentsFilter['after'];
  for (;;) {
    const page = await listPayments(db, { ...filter, ...(after !== undefined ? { after } : {}), limit: pageSize });
    yield page.payments.map((payment) => line(row(payment))).join('');
    const last = page.payments.at(-1);
    if (page.nextCursor === null || last === undefined) return;
    after = { amount: last.amount.amount, createdAt: last.createdAt, id: last.id };
  }
}
