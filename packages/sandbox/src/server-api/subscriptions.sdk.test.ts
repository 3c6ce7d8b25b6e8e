import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { gatewayFor } from '../testing/sandbox.ts';

// Plans and subscriptions through the OFFICIAL SDK, asserting the fields the product's server reads.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

const PLANS = [
  { id: 'coffee-monthly', name: 'Coffee beans, 1 kg, every month', price: 2450 },
  { id: 'tea-trial', name: 'Tea', price: 990, trial: { duration: 14, unit: 'day' as const } },
  { id: 'grinder-care', name: 'Grinder care', price: 500, billingFrequency: 3, numberOfBillingCycles: 4 },
];

beforeAll(async () => {
  sandbox = await startSandbox({ currencyIsoCode: 'EUR', plans: PLANS });
  gateway = gatewayFor(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

function utcDate(date: Date): string {
  return date.toISOString().slice(0, 10);
}

/** A saved card for a new customer (a fake nonce stands for the shopper's card). */
async function savedCard(nonce = 'fake-valid-visa-nonce'): Promise<{ token: string; customerId: string }> {
  const result = await gateway.customer.create({ firstName: 'Ada', paymentMethodNonce: nonce });
  expect(result.success).toBe(true);
  const [card] = result.customer.creditCards ?? [];
  if (!card?.token) throw new Error('no saved card');
  return { token: card.token, customerId: result.customer.id };
}

/** @types/braintree types firstBillingDate as a Date; the provider takes a 'YYYY-MM-DD' date, which is what is sent. */
function subscribe(request: Omit<braintree.SubscriptionRequest, 'firstBillingDate'> & { firstBillingDate?: string }) {
  return gateway.subscription.create(request as unknown as braintree.SubscriptionRequest);
}

function codes(result: { errors?: braintree.ValidationErrorsCollection }): string[] {
  return result.errors?.deepErrors().map((error) => error.code) ?? [];
}

describe('plan.all', () => {
  it('lists the configured plans in the merchant currency', async () => {
    const plans = await gateway.plan.all();
    expect(plans.map((plan) => [plan.id, plan.price, plan.currencyIsoCode, plan.billingFrequency])).toEqual([
      ['coffee-monthly', '24.50', 'EUR', 1],
      ['tea-trial', '9.90', 'EUR', 1],
      ['grinder-care', '5.00', 'EUR', 3],
    ]);
    expect(plans[1]).toMatchObject({ trialPeriod: true, trialDuration: 14, trialDurationUnit: 'day' });
  });

  it('defaults to the demo coffee plan at the catalogue price', async () => {
    const demo = await startSandbox({ currencyIsoCode: 'EUR' });
    try {
      const plans = await gatewayFor(demo).plan.all();
      expect(plans.map((plan) => [plan.id, plan.price, plan.currencyIsoCode])).toEqual([['coffee-monthly', '24.50', 'EUR']]);
    } finally {
      await demo.close();
    }
  });

  it('refuses invalid plans at start, naming them', async () => {
    await expect(startSandbox({ plans: [{ id: 'bad id', name: 'x', price: 0 }] })).rejects.toThrow(/plan "bad id": id must be/);
  });
});

describe('subscription.create, find, cancel', () => {
  it('charges the first month at once: Active, cycle 1, the period and the next billing date set', async () => {
    const { token, customerId } = await savedCard();
    const result = await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly' });
    expect(result.success).toBe(true);
    const { subscription } = result;
    const today = new Date();
    const inAMonth = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth() + 1, 1));
    const lastDay = new Date(Date.UTC(inAMonth.getUTCFullYear(), inAMonth.getUTCMonth() + 1, 0)).getUTCDate();
    const day = today.getUTCDate() > 28 ? lastDay : Math.min(today.getUTCDate(), lastDay);
    const next = utcDate(new Date(Date.UTC(inAMonth.getUTCFullYear(), inAMonth.getUTCMonth(), day)));
    expect(subscription).toMatchObject({
      status: 'Active',
      planId: 'coffee-monthly',
      price: '24.50',
      paymentMethodToken: token,
      currentBillingCycle: 1,
      firstBillingDate: utcDate(today),
      billingPeriodStartDate: utcDate(today),
      nextBillingDate: next,
      billingDayOfMonth: today.getUTCDate() > 28 ? 31 : today.getUTCDate(),
      neverExpires: true,
      numberOfBillingCycles: null,
      failureCount: 0,
      balance: '0.00',
    });
    const dayBefore = new Date(`${next}T00:00:00Z`);
    dayBefore.setUTCDate(dayBefore.getUTCDate() - 1);
    expect(subscription.billingPeriodEndDate).toBe(utcDate(dayBefore));
    expect(subscription.paidThroughDate).toBe(utcDate(dayBefore));
    expect(subscription.transactions ?? []).toHaveLength(1);
    expect((subscription.transactions ?? [])[0]).toMatchObject({
      amount: '24.50',
      currencyIsoCode: 'EUR',
      status: 'submitted_for_settlement',
      subscriptionId: subscription.id,
      planId: 'coffee-monthly',
      recurring: true,
      customer: { id: customerId },
      creditCard: { token },
    });

    const found = await gateway.subscription.find(subscription.id);
    expect(found).toMatchObject({ id: subscription.id, status: 'Active', currentBillingCycle: 1 });
    expect((found.transactions ?? []).map((transaction) => transaction.id)).toEqual([(subscription.transactions ?? [])[0]?.id]);
  });

  it('shows the subscription on its card, and cancels once (81905 the second time)', async () => {
    const { token } = await savedCard();
    const { subscription } = await gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'coffee-monthly',
      id: 'sub_cancel_me',
    });
    expect(subscription.id).toBe('sub_cancel_me');
    const card = await gateway.paymentMethod.find(token);
    expect(
      (card as braintree.CreditCard & { subscriptions: braintree.Subscription[] }).subscriptions.map((s) => [s.id, s.status]),
    ).toEqual([['sub_cancel_me', 'Active']]);

    const canceled = await gateway.subscription.cancel('sub_cancel_me');
    expect(canceled.success).toBe(true);
    expect(canceled.subscription.status).toBe('Canceled');
    expect((canceled.subscription.statusHistory ?? []).map((event) => event.status)).toEqual(['Canceled', 'Active']);

    const again = await gateway.subscription.cancel('sub_cancel_me');
    expect(again.success).toBe(false);
    expect(codes(again)).toEqual(['81905']);
    expect((await gateway.subscription.find('sub_cancel_me')).status).toBe('Canceled');
    await expect(gateway.subscription.cancel('no_such_subscription')).rejects.toMatchObject({ type: 'notFoundError' });
    await expect(gateway.subscription.find('no_such_subscription')).rejects.toMatchObject({ type: 'notFoundError' });
  });

  it('starts a trial without charging, and a later first billing date as Pending', async () => {
    const { token } = await savedCard();
    const trial = await gateway.subscription.create({ paymentMethodToken: token, planId: 'tea-trial' });
    expect(trial.subscription).toMatchObject({ status: 'Active', currentBillingCycle: 0, trialPeriod: true, transactions: [] });
    const trialEnd = new Date();
    trialEnd.setUTCDate(trialEnd.getUTCDate() + 14);
    expect(trial.subscription.nextBillingDate).toBe(utcDate(trialEnd));

    const later = new Date();
    later.setUTCDate(later.getUTCDate() + 10);
    const pending = await subscribe({ paymentMethodToken: token, planId: 'coffee-monthly', firstBillingDate: utcDate(later) });
    expect(pending.subscription).toMatchObject({
      status: 'Pending',
      currentBillingCycle: 0,
      firstBillingDate: utcDate(later),
      transactions: [],
    });
    expect(pending.subscription.nextBillingDate).toBe(utcDate(later));
  });

  it('takes a price, billing cycles and a billing frequency from the plan', async () => {
    const { token } = await savedCard();
    const result = await gateway.subscription.create({
      paymentMethodToken: token,
      planId: 'grinder-care',
      price: '4.00',
      options: { startImmediately: true },
    });
    expect(result.subscription).toMatchObject({ price: '4.00', numberOfBillingCycles: 4, neverExpires: false });
    const start = new Date(`${result.subscription.billingPeriodStartDate}T00:00:00Z`);
    const next = new Date(`${result.subscription.nextBillingDate}T00:00:00Z`);
    expect((next.getUTCFullYear() - start.getUTCFullYear()) * 12 + next.getUTCMonth() - start.getUTCMonth()).toBe(3);
  });

  it('refuses an unknown plan (91904), an unknown token (91903), a bad price (81904) and a past first date (91916)', async () => {
    const { token } = await savedCard();
    expect(codes(await gateway.subscription.create({ paymentMethodToken: token, planId: 'nope' }))).toEqual(['91904']);
    expect(codes(await gateway.subscription.create({ paymentMethodToken: 'nope', planId: 'coffee-monthly' }))).toEqual(['91903']);
    expect(
      codes(await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly', price: 'cheap' })),
    ).toEqual(['81904']);
    const past = await subscribe({ paymentMethodToken: token, planId: 'coffee-monthly', firstBillingDate: '2020-01-01' });
    expect(codes(past)).toEqual(['91916']);
  });

  it('subscribes with the nonce of a saved card (paymentMethodNonce.create)', async () => {
    const { token } = await savedCard();
    const { paymentMethodNonce } = await gateway.paymentMethodNonce.create(token);
    const result = await gateway.subscription.create({ paymentMethodNonce: paymentMethodNonce.nonce, planId: 'coffee-monthly' });
    expect(result.success).toBe(true);
    expect(result.subscription.paymentMethodToken).toBe(token);
  });

  it('settles the first charge with the other sales (its settlement batch)', async () => {
    const settling = await startSandbox({ settlementDelayMs: 60_000 });
    try {
      const sdk = gatewayFor(settling);
      const { customer } = await sdk.customer.create({ paymentMethodNonce: 'fake-valid-visa-nonce' });
      const token = customer.creditCards?.[0]?.token ?? '';
      const { subscription } = await sdk.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly' });
      const chargeId = subscription.transactions?.[0]?.id ?? '';
      settling.advanceClock(60_000);
      expect((await sdk.transaction.find(chargeId)).status).toBe('settled');
    } finally {
      await settling.close();
    }
  });

  it('does not subscribe when the first charge is declined, and answers with the declined transaction', async () => {
    const { token } = await savedCard();
    const result = await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly', price: '2001.00' });
    expect(result.success).toBe(false);
    expect(result.transaction).toMatchObject({ status: 'processor_declined', processorResponseCode: '2001' });
    const card = (await gateway.paymentMethod.find(token)) as braintree.CreditCard & { subscriptions: unknown[] };
    expect(card.subscriptions).toEqual([]);
  });
});
