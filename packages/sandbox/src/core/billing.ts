import { addDays, calendarDate } from './billing-calendar.ts';
import type { CalendarDate } from './billing-calendar.ts';
import type { DueQueue } from './due-queue.ts';
import type { DueRecord } from './due-queue.ts';
import type { EventSink, GatewayEvent } from './events.ts';
import { LIVE_STATUSES } from './subscriptions.ts';
import type { Subscription, Subscriptions, SubscriptionStatus } from './subscriptions.ts';
import type { TransactionResult } from './transactions.ts';
import type { SubscriptionView } from './vault-operations.ts';
import type { Collection } from '../store/store.ts';

// Recurring billing: a live subscription is charged on its next billing date (the day starts at 00:00 UTC). A charge
// that goes through starts the next period (Past Due -> Active); one that fails makes the subscription Past Due and
// is retried RETRY_INTERVAL_DAYS later, up to MAX_CHARGE_ATTEMPTS attempts per period, after which it stays Past Due
// until the merchant acts (the provider's retry logic is a merchant setting; this is the sandbox's fixed one). Once
// its number of billing cycles is paid, a subscription expires on the date it would have been charged next.
// Each change is told by webhook: charged successfully / unsuccessfully, went past due / active, canceled, expired.

export const RETRY_INTERVAL_DAYS = 10;
export const MAX_CHARGE_ATTEMPTS = 3;
const DAY_MS = 24 * 60 * 60 * 1000;

/** The status a subscription was last seen in, so that each change is told once (`subscription-status-seen`). */
interface SeenStatus {
  status: SubscriptionStatus;
}

type SubscriptionEventKind = Extract<GatewayEvent, { subscription: unknown }>['kind'];

const STATUS_EVENT: Partial<Record<SubscriptionStatus, SubscriptionEventKind>> = {
  Canceled: 'subscription_canceled',
  Expired: 'subscription_expired',
  'Past Due': 'subscription_went_past_due',
  Active: 'subscription_went_active',
};

function startOfDay(date: CalendarDate): number {
  return Date.parse(`${date}T00:00:00Z`);
}

export interface BillingContext {
  subscriptions: Subscriptions;
  /** SubscriptionOperations.chargePeriod: the period's charge; when it goes through, the subscription moves on. */
  chargePeriod: (subscription: Subscription, start: CalendarDate, now: Date) => TransactionResult;
  view: (subscription: Subscription) => SubscriptionView;
  events: EventSink;
}

export class Billing {
  constructor(
    private readonly context: BillingContext,
    private readonly queue: DueQueue<DueRecord>,
    private readonly seen: Collection<SeenStatus>,
  ) {}

  /** Sees every subscription stored: tells its change of status, and puts it on its next billing date. */
  observe(subscription: Subscription): void {
    const before = this.seen.get(subscription.id)?.status;
    if (before !== subscription.status) {
      this.seen.set(subscription.id, { status: subscription.status });
      const kind = STATUS_EVENT[subscription.status];
      // A new subscription is not a change (the provider tells nothing), nor is Pending -> Active at the first charge.
      const firstCharge = before === 'Pending' && subscription.status === 'Active';
      if (before !== undefined && !firstCharge && kind !== undefined) this.tell(kind, subscription);
    }
    if (!LIVE_STATUSES.includes(subscription.status)) {
      this.queue.cancel(subscription.id);
    } else if (subscription.status !== 'Past Due') {
      // Past Due: the retry time is set by the failed charge itself.
      const dueAt = startOfDay(subscription.nextBillingDate);
      if (this.queue.get(subscription.id)?.dueAt !== dueAt) this.queue.schedule({ id: subscription.id, dueAt });
    }
  }

  /**
   * Bills a part of what is due (DueQueue.takeDueIds's); answers whether there was any. The caller runs it again until
   * there is none: a clock moved months ahead bills each month in turn.
   */
  runDue(now: Date): boolean {
    const due = this.queue.takeDueIds(now.getTime());
    for (const { id } of due) {
      const subscription = this.context.subscriptions.find(id);
      if (subscription !== undefined && LIVE_STATUSES.includes(subscription.status)) this.bill(subscription, now);
    }
    return due.length > 0;
  }

  private bill(subscription: Subscription, now: Date): void {
    const { subscriptions } = this.context;
    const cycles = subscription.numberOfBillingCycles;
    if (cycles !== null && subscription.currentBillingCycle >= cycles && subscription.status !== 'Past Due') {
      subscriptions.transition(subscription, 'Expired', 'recurring', now);
      subscriptions.save(subscription, now);
      return;
    }
    const charge = this.context.chargePeriod(subscription, subscription.nextBillingDate, now);
    if (charge.kind === 'success') {
      subscription.failureCount = 0;
      subscription.daysPastDue = null;
      subscription.balance = '0.00';
      if (subscription.status !== 'Active') subscriptions.transition(subscription, 'Active', 'recurring', now);
      subscriptions.save(subscription, now);
      this.tell('subscription_charged_successfully', subscription);
      return;
    }
    // The provider lists declined charges among the subscription's transactions too.
    if (charge.kind === 'unsuccessful') subscriptions.recordTransaction(subscription, charge.transaction.id);
    subscription.failureCount += 1;
    subscription.balance = subscription.price;
    subscription.daysPastDue = Math.max(0, Math.floor((now.getTime() - startOfDay(subscription.nextBillingDate)) / DAY_MS));
    if (subscription.status !== 'Past Due') subscriptions.transition(subscription, 'Past Due', 'recurring', now);
    subscriptions.save(subscription, now);
    this.tell('subscription_charged_unsuccessfully', subscription);
    if (subscription.failureCount < MAX_CHARGE_ATTEMPTS) {
      const retry = addDays(calendarDate(now), RETRY_INTERVAL_DAYS);
      this.queue.schedule({ id: subscription.id, dueAt: startOfDay(retry) });
    }
  }

  private tell(kind: SubscriptionEventKind, subscription: Subscription): void {
    this.context.events({ kind, subscription: this.context.view(subscription) }, subscription.updatedAt);
  }
}
