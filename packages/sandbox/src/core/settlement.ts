import { validationError } from './errors.ts';
import type { EventSink } from './events.ts';
import type { DueQueue } from './due-queue.ts';
import type { DueRecord } from './due-queue.ts';
import { invalidResult, TRANSACTION } from './transactions.ts';
import type { Transaction, TransactionResult, Transactions, TransactionStatus } from './transactions.ts';

// Settlement: a transaction submitted for settlement (a captured sale, a refund) settles by itself when its
// settlement batch runs, or at once through the provider's testing calls (testing.settle, settlementDecline,
// settlementPending, settlementConfirm).

/**
 * When submitted transactions settle. `batch`: like the provider, once a day at a cut-off hour (UTC), everything
 * submitted before it; `delay`: a fixed time after submission (short, for demos and tests).
 */
export type SettlementTiming = { kind: 'batch'; cutoffHourUtc: number } | { kind: 'delay'; ms: number };

/** The provider's default settlement cut-off is 5 PM Central time; 23:00 UTC is that hour in winter. */
export const DAILY_BATCH: SettlementTiming = { kind: 'batch', cutoffHourUtc: 23 };

export function settlementDueAt(timing: SettlementTiming, submittedAt: Date): number {
  if (timing.kind === 'delay') return submittedAt.getTime() + timing.ms;
  const cutoff = new Date(submittedAt);
  cutoff.setUTCHours(timing.cutoffHourUtc, 0, 0, 0);
  if (cutoff.getTime() <= submittedAt.getTime()) cutoff.setUTCDate(cutoff.getUTCDate() + 1);
  return cutoff.getTime();
}

export type SettlementSimulation = 'settle' | 'settlement_decline' | 'settlement_pending' | 'settlement_confirm';

/** Which statuses each testing call may start from, and where it leads. */
const SIMULATIONS: Readonly<Record<SettlementSimulation, { from: readonly TransactionStatus[]; to: TransactionStatus }>> = {
  settle: { from: ['submitted_for_settlement', 'settling', 'settlement_pending'], to: 'settled' },
  settlement_decline: { from: ['submitted_for_settlement', 'settling', 'settlement_pending'], to: 'settlement_declined' },
  settlement_pending: { from: ['submitted_for_settlement', 'settling'], to: 'settlement_pending' },
  settlement_confirm: { from: ['settled'], to: 'settlement_confirmed' },
};

const CANNOT_SIMULATE = validationError(TRANSACTION, 'base', '91575', 'Cannot simulate transaction settlement.');

export class Settlement {
  constructor(
    private readonly transactions: Transactions,
    private readonly queue: DueQueue<DueRecord>,
    private readonly timing: SettlementTiming,
    private readonly events: EventSink,
  ) {}

  /** Sees every transaction stored: one that has just been submitted for settlement goes into its batch. */
  observe(transaction: Transaction): void {
    if (transaction.status !== 'submitted_for_settlement' || this.queue.has(transaction.id)) return;
    this.queue.add({ id: transaction.id, dueAt: settlementDueAt(this.timing, transaction.updatedAt) });
  }

  /**
   * Runs a part of the batches due at `now` (DueQueue.takeDueIds's): each transaction still submitted goes settling ->
   * settled. Answers whether there was any (the caller runs it again until there is none).
   */
  runDue(now: Date): boolean {
    const due = this.queue.takeDueIds(now.getTime());
    for (const { id } of due) {
      const transaction = this.transactions.find(id);
      // Voided (or settled by a testing call) since it was scheduled: nothing to do.
      if (transaction?.status !== 'submitted_for_settlement') continue;
      this.transactions.transition(transaction, 'settling', now);
      this.finish(transaction, 'settled', now);
    }
    return due.length > 0;
  }

  /** The provider's testing calls; 91575 from a status the call does not apply to. */
  simulate(transaction: Transaction, simulation: SettlementSimulation, now: Date): TransactionResult {
    const { from, to } = SIMULATIONS[simulation];
    if (!from.includes(transaction.status)) return invalidResult([CANNOT_SIMULATE]);
    this.queue.cancel(transaction.id);
    this.finish(transaction, to, now);
    return { kind: 'success', transaction };
  }

  private finish(transaction: Transaction, to: TransactionStatus, now: Date): void {
    this.transactions.transition(transaction, to, now);
    if (to === 'settled') {
      transaction.settlementBatchId = `${now.toISOString().slice(0, 10)}_${transaction.merchantAccountId}`;
    }
    this.transactions.save(transaction);
    if (to === 'settled') this.events({ kind: 'transaction_settled', transaction }, now);
    if (to === 'settlement_declined') this.events({ kind: 'transaction_settlement_declined', transaction }, now);
  }
}
