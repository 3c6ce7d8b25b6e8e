import { randomId } from './ids.ts';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import { addDays, addMonths } from './billing-calendar.ts';
import type { CalendarDate } from './billing-calendar.ts';
import type { Plan, TrialDurationUnit } from './plans.ts';
import type { Collection, KeyDefinitions } from '../store/store.ts';

// Subscriptions: a saved card charged a plan's price every billingFrequency months on billingDayOfMonth. This module
// keeps the records, their statuses (named as the provider names them) and billing periods; the first charge is
// made by the gateway when the subscription starts, later charges by the recurring billing job, which moves a
// subscription to its next period with `beginPeriod` and records the charge with `recordTransaction`.

export const SUBSCRIPTION_STATUSES = ['Pending', 'Active', 'Past Due', 'Canceled', 'Expired'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** Which status may follow which; every change of status goes through `transition`. */
const TRANSITIONS: Readonly<Record<SubscriptionStatus, readonly SubscriptionStatus[]>> = {
  Pending: ['Active', 'Past Due', 'Canceled'],
  Active: ['Past Due', 'Canceled', 'Expired'],
  'Past Due': ['Active', 'Canceled', 'Expired'],
  Canceled: [],
  Expired: [],
};

/** Statuses in which a subscription still bills (or will): its card is locked against deletion by the product. */
export const LIVE_STATUSES: readonly SubscriptionStatus[] = ['Pending', 'Active', 'Past Due'];

export interface SubscriptionStatusEvent {
  status: SubscriptionStatus;
  price: string;
  balance: string;
  planId: string;
  currencyIsoCode: string;
  subscriptionSource: 'api' | 'recurring';
  timestamp: Date;
}

export interface Subscription {
  id: string;
  planId: string;
  paymentMethodToken: string;
  customerId: string;
  merchantAccountId: string;
  currencyIsoCode: string;
  /** Decimal string charged each period. */
  price: string;
  status: SubscriptionStatus;
  billingFrequency: number;
  /** 1-28, or 31 for the last day of the month. */
  billingDayOfMonth: number;
  firstBillingDate: CalendarDate;
  nextBillingDate: CalendarDate;
  /** The period paid by the last charge; null before the first charge (pending, or in a trial). */
  billingPeriodStartDate: CalendarDate | null;
  billingPeriodEndDate: CalendarDate | null;
  paidThroughDate: CalendarDate | null;
  /** Periods begun so far: 0 before the first charge. */
  currentBillingCycle: number;
  /** null: never expires. */
  numberOfBillingCycles: number | null;
  trialPeriod: boolean;
  trialDuration: number | null;
  trialDurationUnit: TrialDurationUnit | null;
  balance: string;
  failureCount: number;
  daysPastDue: number | null;
  /** Charges, oldest first. */
  transactionIds: string[];
  statusHistory: SubscriptionStatusEvent[];
  createdAt: Date;
  updatedAt: Date;
}

export interface NewSubscription {
  id: string;
  plan: Plan;
  paymentMethodToken: string;
  customerId: string;
  merchantAccountId: string;
  price: string;
  billingDayOfMonth: number;
  firstBillingDate: CalendarDate;
  numberOfBillingCycles: number | null;
  status: 'Pending' | 'Active';
}

export const SUBSCRIPTION = ['subscription'] as const;
const SUBSCRIPTION_ID = /^[A-Za-z0-9_-]{1,36}$/;

/** How subscriptions are found without reading the others: by card, by customer, by id (search), by creation. */
export const SUBSCRIPTION_KEYS: KeyDefinitions<Subscription> = {
  paymentMethodToken: (subscription) => subscription.paymentMethodToken,
  customerId: (subscription) => subscription.customerId,
  /** Searches match ids ignoring case. */
  id: (subscription) => subscription.id.toLowerCase(),
  createdAt: (subscription) => subscription.createdAt.getTime(),
};

export class Subscriptions {
  constructor(private readonly records: Collection<Subscription>) {}

  find(id: string): Subscription | undefined {
    return this.records.get(id);
  }

  forPaymentMethod(token: string): Subscription[] {
    return this.records.withKey('paymentMethodToken', token);
  }

  forCustomer(customerId: string): Subscription[] {
    return this.records.withKey('customerId', customerId);
  }

  /** The id asked for (checked: 81906 format, 81902 taken) or a fresh one. */
  checkId(id: string | null): string | ValidationError {
    if (id === null) {
      let fresh: string;
      do fresh = randomId(6);
      while (this.records.has(fresh));
      return fresh;
    }
    if (!SUBSCRIPTION_ID.test(id))
      return validationError(SUBSCRIPTION, 'id', '81906', 'ID is invalid (use only letters, numbers, "-", and "_").');
    if (this.records.has(id)) return validationError(SUBSCRIPTION, 'id', '81902', 'ID has already been taken.');
    return id;
  }

  /** A subscription record, not yet stored (the gateway stores it once its first charge, if any, went through). */
  build(request: NewSubscription, now: Date): Subscription {
    const { plan } = request;
    return {
      id: request.id,
      planId: plan.id,
      paymentMethodToken: request.paymentMethodToken,
      customerId: request.customerId,
      merchantAccountId: request.merchantAccountId,
      currencyIsoCode: plan.currencyIsoCode,
      price: request.price,
      status: request.status,
      billingFrequency: plan.billingFrequency,
      billingDayOfMonth: request.billingDayOfMonth,
      firstBillingDate: request.firstBillingDate,
      nextBillingDate: request.firstBillingDate,
      billingPeriodStartDate: null,
      billingPeriodEndDate: null,
      paidThroughDate: null,
      currentBillingCycle: 0,
      numberOfBillingCycles: request.numberOfBillingCycles,
      trialPeriod: plan.trialPeriod,
      trialDuration: plan.trialDuration,
      trialDurationUnit: plan.trialDurationUnit,
      balance: '0.00',
      failureCount: 0,
      daysPastDue: null,
      transactionIds: [],
      statusHistory: [statusEvent(request.status, request.price, plan.id, plan.currencyIsoCode, 'api', now)],
      createdAt: now,
      updatedAt: now,
    };
  }

  /**
   * Starts the billing period beginning on `start` (the day it is charged): the next billing date is
   * billingFrequency months later on the billing day, the period (and what is paid) ends the day before.
   */
  beginPeriod(subscription: Subscription, start: CalendarDate): void {
    subscription.billingPeriodStartDate = start;
    subscription.nextBillingDate = addMonths(start, subscription.billingFrequency, subscription.billingDayOfMonth);
    subscription.billingPeriodEndDate = addDays(subscription.nextBillingDate, -1);
    subscription.paidThroughDate = subscription.billingPeriodEndDate;
    subscription.currentBillingCycle += 1;
  }

  recordTransaction(subscription: Subscription, transactionId: string): void {
    subscription.transactionIds.push(transactionId);
  }

  transition(subscription: Subscription, to: SubscriptionStatus, source: 'api' | 'recurring', now: Date): void {
    if (!TRANSITIONS[subscription.status].includes(to)) {
      throw new Error(`subscription ${subscription.id}: ${subscription.status} -> ${to} is not a transition`);
    }
    subscription.status = to;
    subscription.statusHistory.push(
      statusEvent(to, subscription.price, subscription.planId, subscription.currencyIsoCode, source, now),
    );
  }

  /** Stores the record (new or changed in place). */
  save(subscription: Subscription, now: Date): void {
    subscription.updatedAt = now;
    this.records.set(subscription.id, subscription);
  }

  /** Canceled or Expired cannot be canceled again (81905). */
  cancel(subscription: Subscription, now: Date): ValidationError | null {
    if (!TRANSITIONS[subscription.status].includes('Canceled')) {
      return validationError(SUBSCRIPTION, 'status', '81905', 'Subscription has already been canceled.');
    }
    this.transition(subscription, 'Canceled', 'api', now);
    this.save(subscription, now);
    return null;
  }
}

function statusEvent(
  status: SubscriptionStatus,
  price: string,
  planId: string,
  currencyIsoCode: string,
  subscriptionSource: 'api' | 'recurring',
  timestamp: Date,
): SubscriptionStatusEvent {
  return { status, price, balance: '0.00', planId, currencyIsoCode, subscriptionSource, timestamp };
}
