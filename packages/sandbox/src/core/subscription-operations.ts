import { addDays, addMonths, billingDayFor, calendarDate, isCalendarDate, LAST_DAY_OF_MONTH } from './billing-calendar.ts';
import type { CalendarDate } from './billing-calendar.ts';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import { givenText, isTrue } from './params.ts';
import type { Plan } from './plans.ts';
import { SUBSCRIPTION } from './subscriptions.ts';
import type { Subscription } from './subscriptions.ts';
import { formatAmount, invalidResult, parseAmount } from './transactions.ts';
import type { Transaction, TransactionResult } from './transactions.ts';
import type { VaultedCard } from './vault.ts';
import type { SubscriptionView, VaultContext, VaultOperations } from './vault-operations.ts';

// subscription.create / find / cancel and plan.all. A subscription starts in one of three ways, as on the provider:
// charged at once (Active, cycle 1), in a free trial (Active, cycle 0, first charge when the trial ends), or on a
// later first billing date (Pending). Later charges belong to the recurring billing job.

/** subscription.create's parameters, camelCased from the wire; unchecked. */
export interface SubscriptionParams {
  id?: unknown;
  planId?: unknown;
  paymentMethodToken?: unknown;
  paymentMethodNonce?: unknown;
  price?: unknown;
  firstBillingDate?: unknown;
  billingDayOfMonth?: unknown;
  numberOfBillingCycles?: unknown;
  neverExpires?: unknown;
  options?: { startImmediately?: unknown };
}

/** As a transaction's: made; not made because its first charge failed (with that transaction); invalid. */
export type SubscriptionResult =
  | { kind: 'success'; view: SubscriptionView }
  | { kind: 'unsuccessful'; transaction: Transaction; message: string }
  | { kind: 'invalid'; errors: ValidationError[]; message: string };

function integerIn(value: unknown, valid: (n: number) => boolean): number | null {
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : NaN;
  return Number.isInteger(number) && valid(number) ? number : null;
}

/** The first date on or after `today` that falls on `billingDayOfMonth`. */
function nextBillingDay(today: CalendarDate, billingDayOfMonth: number): CalendarDate {
  const thisMonth = addMonths(today, 0, billingDayOfMonth);
  return thisMonth >= today ? thisMonth : addMonths(today, 1, billingDayOfMonth);
}

export class SubscriptionOperations {
  constructor(
    private readonly context: VaultContext,
    private readonly vault: VaultOperations,
    private readonly plans: ReadonlyMap<string, Plan>,
  ) {}

  allPlans(): Plan[] {
    return [...this.plans.values()];
  }

  find(id: string): SubscriptionView | undefined {
    const subscription = this.context.subscriptions.find(id);
    return subscription === undefined ? undefined : this.vault.subscriptionView(subscription);
  }

  /** null when there is no such subscription; 81905 when it is already canceled (or expired). */
  cancel(id: string): Outcome<SubscriptionView> | null {
    const subscription = this.context.subscriptions.find(id);
    if (subscription === undefined) return null;
    const error = this.context.subscriptions.cancel(subscription, this.context.clock());
    return error === null ? { ok: true, value: this.vault.subscriptionView(subscription) } : invalid([error]);
  }

  /** The saved card (or wallet) a subscription is to charge: by token, or by the nonce of a saved one. */
  private savedCard(params: SubscriptionParams): VaultedCard | ValidationError {
    const nonce = givenText(params.paymentMethodNonce);
    if (nonce !== null) {
      const resolved = this.context.nonces.resolve(nonce, SUBSCRIPTION, this.context.clock());
      if ('code' in resolved)
        return validationError(SUBSCRIPTION, 'payment_method_nonce', '91925', 'Payment method nonce is invalid.');
      const token = resolved.record?.paymentMethodToken ?? null;
      const saved = token === null ? undefined : this.context.paymentMethods.find(token);
      if (saved === undefined) {
        return validationError(
          SUBSCRIPTION,
          'payment_method_nonce',
          '91927',
          'Payment method nonce must be of a vaulted payment method.',
        );
      }
      return saved;
    }
    const token = givenText(params.paymentMethodToken);
    const saved = token === null ? undefined : this.context.paymentMethods.find(token);
    return saved ?? validationError(SUBSCRIPTION, 'payment_method_token', '91903', 'Payment method token is invalid.');
  }

  create(params: SubscriptionParams): SubscriptionResult {
    const now = this.context.clock();
    const today = calendarDate(now);
    const errors: ValidationError[] = [];
    const id = this.context.subscriptions.checkId(givenText(params.id));
    if (typeof id !== 'string') errors.push(id);
    const plan = this.plans.get(givenText(params.planId) ?? '');
    if (plan === undefined) errors.push(validationError(SUBSCRIPTION, 'plan_id', '91904', 'Plan ID is invalid.'));
    const saved = this.savedCard(params);
    if ('code' in saved) errors.push(saved);

    let price = plan?.price ?? '0.00';
    if (params.price !== undefined && params.price !== null) {
      const minorUnits = parseAmount(params.price);
      if (minorUnits === null) errors.push(validationError(SUBSCRIPTION, 'price', '81904', 'Price is an invalid format.'));
      else price = formatAmount(minorUnits);
    }
    let billingDayOfMonth = plan?.billingDayOfMonth ?? null;
    if (params.billingDayOfMonth !== undefined && params.billingDayOfMonth !== null) {
      billingDayOfMonth = integerIn(params.billingDayOfMonth, (day) => (day >= 1 && day <= 28) || day === LAST_DAY_OF_MONTH);
      if (billingDayOfMonth === null) {
        errors.push(validationError(SUBSCRIPTION, 'billing_day_of_month', '91914', 'Billing day of month is invalid.'));
      }
    }
    let firstBillingDate: CalendarDate | null = null;
    if (params.firstBillingDate !== undefined && params.firstBillingDate !== null && params.firstBillingDate !== '') {
      if (!isCalendarDate(params.firstBillingDate)) {
        errors.push(validationError(SUBSCRIPTION, 'first_billing_date', '91915', 'First billing date is invalid.'));
      } else if (params.firstBillingDate < today) {
        errors.push(validationError(SUBSCRIPTION, 'first_billing_date', '91916', 'First billing date cannot be in the past.'));
      } else {
        firstBillingDate = params.firstBillingDate;
      }
    }
    let numberOfBillingCycles = plan?.numberOfBillingCycles ?? null;
    if (isTrue(params.neverExpires)) {
      numberOfBillingCycles = null;
    } else if (params.numberOfBillingCycles !== undefined && params.numberOfBillingCycles !== null) {
      numberOfBillingCycles = integerIn(params.numberOfBillingCycles, (cycles) => cycles >= 1);
      if (numberOfBillingCycles === null) {
        errors.push(
          validationError(
            SUBSCRIPTION,
            'number_of_billing_cycles',
            '91907',
            'Number of billing cycles must be greater than zero.',
          ),
        );
      }
    }
    if (errors.length > 0 || typeof id !== 'string' || plan === undefined || 'code' in saved) {
      return { kind: 'invalid', errors, message: errors.map((error) => error.message).join('\n') };
    }

    // When the first charge falls: a trial's end, the date asked for, the next billing day, or today.
    let start = firstBillingDate;
    if (start === null && plan.trialPeriod) {
      const duration = plan.trialDuration ?? 0;
      start = plan.trialDurationUnit === 'month' ? addMonths(today, duration, billingDayFor(today)) : addDays(today, duration);
    }
    if (start === null && billingDayOfMonth !== null && !isTrue(params.options?.startImmediately)) {
      start = nextBillingDay(today, billingDayOfMonth);
    }
    start ??= today;
    const chargeNow = start === today && !(plan.trialPeriod && firstBillingDate === null);
    const subscription = this.context.subscriptions.build(
      {
        id,
        plan,
        paymentMethodToken: saved.token,
        customerId: saved.customerId,
        merchantAccountId: this.context.merchantAccountId,
        price,
        billingDayOfMonth: billingDayOfMonth ?? billingDayFor(start),
        firstBillingDate: start,
        numberOfBillingCycles,
        status: chargeNow || plan.trialPeriod ? 'Active' : 'Pending',
      },
      now,
    );
    if (chargeNow) {
      // A declined first charge: no subscription, the declined transaction on the result.
      const charged = this.chargePeriod(subscription, today, now);
      if (charged.kind !== 'success') return charged;
    } else {
      this.context.subscriptions.save(subscription, now);
    }
    return { kind: 'success', view: this.vault.subscriptionView(subscription) };
  }

  /**
   * Charges the subscription's price with its saved card for the period beginning `start`. Authorized: the
   * subscription moves to that period (cycle + 1, next billing date, paid through), records the charge and is saved.
   * Otherwise nothing changes here: the recurring billing job (which calls this on each due date) decides what a
   * declined charge means (failureCount, Past Due).
   */
  chargePeriod(subscription: Subscription, start: CalendarDate, now: Date): TransactionResult {
    const saved = this.context.paymentMethods.find(subscription.paymentMethodToken);
    if (saved === undefined) {
      // Deleting a card cancels its subscriptions, so a billable subscription always has one.
      return invalidResult([validationError(SUBSCRIPTION, 'payment_method_token', '91903', 'Payment method token is invalid.')]);
    }
    const sale = this.context.transactions.sale(
      {
        amount: parseAmount(subscription.price) ?? 0,
        card: saved.card,
        orderId: null,
        customerId: saved.customerId,
        deviceData: false,
        submitForSettlement: true,
        threeDSecureRequired: false,
        paymentMethodToken: saved.token,
        // A subscription a saved wallet pays (a PayPal billing agreement, ...) charges the wallet, as on the provider.
        wallet: saved.wallet ?? null,
        vaultOnSuccess: null,
        subscription: { id: subscription.id, planId: subscription.planId },
        rulesRejection: null,
      },
      now,
    );
    if (sale.kind !== 'success') return sale;
    this.context.subscriptions.recordTransaction(subscription, sale.transaction.id);
    this.context.subscriptions.beginPeriod(subscription, start);
    this.context.subscriptions.save(subscription, now);
    return sale;
  }
}
