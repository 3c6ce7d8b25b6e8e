import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import type { PaymentGateway } from '../gateway/gateway.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import { sendAttempt } from '../payments/pay-order.ts';
import type { PayOrderDeps } from '../payments/pay-order.ts';
import { findStaleAttempts, leaseAttempt } from '../payments/payments.repository.ts';
import { runEvery } from './every.ts';

export interface ReconcilerDeps {
  db: Db;
  gateway: PaymentGateway;
  log: FastifyBaseLogger;
  /** How long an attempt must go untouched before it is taken over (config.ts staleAttemptMsFor). */
  staleAttemptMs: number;
  /** Counts a finished attempt's outcome for the velocity rules, as a payment request would (velocity/guard.ts outcomeCounter). */
  countOutcome: NonNullable<PayOrderDeps['countOutcome']>;
}

/**
 * Finishes payment attempts whose answer was lost (a crash, a time-out) and that nobody retried: each is leased like a
 * payment request would, and its own stored request is sent again under its own gateway request key, so the gateway
 * answers the first outcome and never charges twice. An outcome still unknown leaves the attempt for the next round.
 */
export async function reconcileStaleAttempts(
  deps: ReconcilerDeps,
  now: Date = new Date(),
): Promise<{ finished: number; unknown: number }> {
  const counts = { finished: 0, unknown: 0 };
  for (const attempt of await findStaleAttempts(deps.db, new Date(now.getTime() - deps.staleAttemptMs))) {
    const leased = await leaseAttempt(deps.db, attempt, now);
    if (leased === undefined) continue; // a payment request holds it
    try {
      const saved = await sendAttempt(deps, leased, { resend: true });
      deps.log.info(
        { paymentId: saved.id, orderId: saved.order_id, status: saved.status },
        'reconciled a payment attempt whose answer was lost',
      );
      counts.finished += 1;
    } catch (error) {
      if (!(error instanceof GatewayUnavailableError)) throw error;
      deps.log.warn(
        { paymentId: attempt.id, orderId: attempt.order_id, err: error },
        'payment attempt still unknown; will retry',
      );
      counts.unknown += 1;
    }
  }
  return counts;
}

/** Runs the reconciler every `intervalMs`, one round at a time; returns the function that stops it. */
export function startReconciler(deps: ReconcilerDeps, intervalMs: number): () => void {
  return runEvery(intervalMs, async () => {
    try {
      await reconcileStaleAttempts(deps);
    } catch (error) {
      deps.log.error({ err: error }, 'reconciler round failed');
    }
  });
}
