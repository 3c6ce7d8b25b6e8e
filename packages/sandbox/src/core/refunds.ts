import { validationError } from './errors.ts';
import { invalidResult, parseAmount, TRANSACTION, validateAmount } from './transactions.ts';
import type { Transaction, TransactionResult, Transactions, TransactionStatus } from './transactions.ts';

// transaction.refund: a settled sale is refunded in full or in parts (several partial refunds up to its amount);
// each refund is a new `credit` transaction. A sale that has not settled yet is voided instead (91506 tells so).

export interface RefundParams {
  amount?: unknown;
  orderId?: unknown;
}

const REFUNDABLE: readonly TransactionStatus[] = ['settled', 'settlement_confirmed'];
const SETTLING: readonly TransactionStatus[] = ['settling', 'settlement_pending'];

const errors = {
  credit: validationError(TRANSACTION, 'base', '91505', 'Cannot refund a credit.'),
  unsettled: validationError(TRANSACTION, 'base', '91506', 'Cannot refund a transaction unless it is settled.'),
  settling: validationError(TRANSACTION, 'base', '91574', 'Cannot refund a transaction with a status of settling.'),
  refunded: validationError(TRANSACTION, 'base', '91512', 'Transaction has already been fully refunded.'),
  tooLarge: validationError(TRANSACTION, 'amount', '91521', 'Refund amount is too large.'),
};

/** What is left to refund (minor units): the settled amount minus refunds that were not voided. */
export function refundableAmount(sale: Transaction, transactions: Transactions): number {
  let left = parseAmount(sale.amount) ?? 0;
  for (const id of sale.refundIds) {
    const credit = transactions.find(id);
    if (credit !== undefined && credit.status !== 'voided') left -= parseAmount(credit.amount) ?? 0;
  }
  return left;
}

export function refund(sale: Transaction, params: RefundParams, transactions: Transactions, now: Date): TransactionResult {
  if (sale.type === 'credit') return invalidResult([errors.credit]);
  if (SETTLING.includes(sale.status)) return invalidResult([errors.settling]);
  if (!REFUNDABLE.includes(sale.status)) return invalidResult([errors.unsettled]);
  const left = refundableAmount(sale, transactions);
  if (left <= 0) return invalidResult([errors.refunded]);
  let amount = left;
  if (params.amount !== undefined && params.amount !== null && params.amount !== '') {
    const asked = validateAmount(params.amount);
    if (typeof asked !== 'number') return invalidResult([asked]);
    if (asked > left) return invalidResult([errors.tooLarge]);
    amount = asked;
  }
  const orderId = typeof params.orderId === 'string' && params.orderId !== '' ? params.orderId : null;
  return { kind: 'success', transaction: transactions.credit(sale, amount, orderId, now) };
}
