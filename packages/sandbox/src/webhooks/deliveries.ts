import { randomId } from '../core/ids.ts';
import { DueQueue } from '../core/due-queue.ts';
import type { Collection, Store } from '../store/store.ts';
import type { SignedNotification } from './notification.ts';

// Webhook deliveries: each notification is stored (the `webhook-deliveries` collection) in the same step as the change
// it reports, then POSTed form-encoded to the configured URL. A receiver that does not answer 2xx in time is tried
// again with back-off (sandbox time, so a test moves the clock to see the retries) until MAX_ATTEMPTS, then the
// notification is kept among the last DEAD_LETTERS_KEPT failures (`webhook-failures`). Stored, so a burst or a
// restart loses nothing; sent one at a time, oldest first.

/** Wait before attempt n+1 after n failures (ms); the last value repeats. */
export const RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 60 * 60_000] as const;
export const MAX_ATTEMPTS = 10;
/** How long one attempt may take; a delivery is also leased for this long, so a crash mid-attempt retries it. */
export const ATTEMPT_TIMEOUT_MS = 10_000;
const DEAD_LETTERS_KEPT = 100;

export interface Delivery extends SignedNotification {
  id: string;
  dueAt: number;
  kind: string;
  createdAt: Date;
  attempts: number;
  lastError: string | null;
}

export interface DeliveryOptions {
  store: Store;
  url: string;
  /** The sandbox's time. */
  now: () => Date;
  /** Told of each final failure (default: stderr). */
  onGiveUp?: (delivery: Delivery) => void;
}

export function retryDelay(failures: number): number {
  return RETRY_DELAYS_MS[Math.min(failures, RETRY_DELAYS_MS.length) - 1] ?? RETRY_DELAYS_MS[0];
}

export class WebhookDeliveries {
  private readonly queue: DueQueue<Delivery>;
  private readonly failures: Collection<Delivery>;
  private running: Promise<void> | null = null;
  private again = false;
  private closed = false;

  constructor(private readonly options: DeliveryOptions) {
    this.queue = new DueQueue<Delivery>(options.store, 'webhook-deliveries');
    this.failures = options.store.collection<Delivery>('webhook-failures');
  }

  enqueue(kind: string, notification: SignedNotification, at: Date): void {
    this.queue.add({
      id: randomId(12),
      dueAt: at.getTime(),
      kind,
      createdAt: at,
      attempts: 0,
      lastError: null,
      ...notification,
    });
    queueMicrotask(() => void this.pump());
  }

  /**
   * Delivers what is due; one run at a time. A call during a run returns that run and makes it look again before it
   * ends, so what was enqueued just before the call is in what the returned promise waits for.
   */
  pump(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running === null) this.running = this.drain();
    else this.again = true;
    return this.running;
  }

  private async drain(): Promise<void> {
    try {
      do {
        this.again = false;
        await this.deliverDue();
      } while (this.again && !this.closed);
    } finally {
      this.running = null;
    }
  }

  /** Stops sending; what is pending stays stored for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    await this.running;
  }

  private async deliverDue(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const now = this.options.now().getTime();
      const due = this.queue.takeDue(now);
      if (due.length === 0) return;
      // Leased: if the process dies during an attempt, the delivery comes back once the lease is over.
      for (const delivery of due) this.queue.schedule({ ...delivery, dueAt: now + ATTEMPT_TIMEOUT_MS });
      for (const delivery of due) {
        if (this.closed) return;
        await this.deliver(delivery);
      }
    }
  }

  private async deliver(delivery: Delivery): Promise<void> {
    const error = await this.attempt(delivery);
    if (error === null) {
      this.queue.cancel(delivery.id);
      return;
    }
    const attempts = delivery.attempts + 1;
    const failed = { ...delivery, attempts, lastError: error };
    if (attempts >= MAX_ATTEMPTS) {
      this.queue.cancel(delivery.id);
      this.keepFailure(failed);
    } else {
      this.queue.schedule({ ...failed, dueAt: this.options.now().getTime() + retryDelay(attempts) });
    }
  }

  /** null when the receiver took it (2xx), else why not. */
  private async attempt(delivery: Delivery): Promise<string | null> {
    try {
      const response = await fetch(this.options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ bt_signature: delivery.bt_signature, bt_payload: delivery.bt_payload }).toString(),
        signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS),
      });
      await response.body?.cancel();
      return response.ok ? null : `HTTP ${response.status}`;
    } catch (error) {
      return error instanceof Error ? error.message : String(error);
    }
  }

  private keepFailure(delivery: Delivery): void {
    this.failures.set(delivery.id, delivery);
    // At most DEAD_LETTERS_KEPT + 1 records: the oldest beyond the limit goes.
    const kept = [...this.failures.inOrder()].map((failure) => failure.id);
    for (const id of kept.slice(0, Math.max(0, kept.length - DEAD_LETTERS_KEPT))) this.failures.delete(id);
    (this.options.onGiveUp ?? defaultGiveUp)(delivery);
  }
}

function defaultGiveUp(delivery: Delivery): void {
  process.stderr.write(
    `sandbox: webhook ${delivery.kind} given up after ${delivery.attempts} attempts (${delivery.lastError ?? ''})\n`,
  );
}
