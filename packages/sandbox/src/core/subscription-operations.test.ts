import { describe, expect, it } from 'vitest';
import { SandboxGateway } from './gateway.ts';
import { createMemoryStore } from '../store/memory-store.ts';

// Subscriptions in the gateway core with a fixed clock: billing dates at the month's end, and chargePeriod, with
// which recurring billing (core/billing.ts) moves a subscription on.

const DAY_MS = 24 * 60 * 60 * 1000;

function setUp(start: string) {
  const gateway = new SandboxGateway({
    merchantId: 'm',
    publicKey: 'p',
    privateKey: 'k',
    store: createMemoryStore(),
    currencyIsoCode: 'EUR',
    clock: () => new Date(start),
  });
  const customer = gateway.vault.createCustomer({ paymentMethodNonce: 'fake-valid-visa-nonce' });
  if (!customer.ok) throw new Error(customer.message);
  const [card] = customer.value.cards;
  if (card === undefined) throw new Error('no card');
  return { gateway, token: card.saved.token };
}

describe('subscription billing dates', () => {
  it('started on 31 January: billed on the last day of each month, the period ending the day before', () => {
    const { gateway, token } = setUp('2026-01-31T10:00:00Z');
    const created = gateway.subscriptions.create({ planId: 'coffee-monthly', paymentMethodToken: token });
    if (created.kind !== 'success') throw new Error(created.kind);
    const { subscription } = created.view;
    expect(subscription).toMatchObject({
      status: 'Active',
      billingDayOfMonth: 31,
      firstBillingDate: '2026-01-31',
      billingPeriodStartDate: '2026-01-31',
      billingPeriodEndDate: '2026-02-27',
      nextBillingDate: '2026-02-28',
      paidThroughDate: '2026-02-27',
      currentBillingCycle: 1,
      currencyIsoCode: 'EUR',
      price: '24.50',
    });
    expect(created.view.transactions.map((transaction) => [transaction.amount, transaction.status])).toEqual([
      ['24.50', 'submitted_for_settlement'],
    ]);

    // The billing job's hook: the next period, charged on its billing date.
    const second = gateway.subscriptions.chargePeriod(
      subscription,
      subscription.nextBillingDate,
      new Date('2026-02-28T10:00:00Z'),
    );
    expect(second.kind).toBe('success');
    expect(gateway.subscriptions.find(subscription.id)?.subscription).toMatchObject({
      currentBillingCycle: 2,
      billingPeriodStartDate: '2026-02-28',
      nextBillingDate: '2026-03-31',
      billingPeriodEndDate: '2026-03-30',
      paidThroughDate: '2026-03-30',
    });
    expect(gateway.subscriptions.find(subscription.id)?.transactions).toHaveLength(2);
  });

  it('a declined period charge changes nothing and answers the declined transaction', () => {
    const { gateway, token } = setUp('2026-03-10T10:00:00Z');
    const created = gateway.subscriptions.create({ planId: 'coffee-monthly', paymentMethodToken: token, price: '20.00' });
    if (created.kind !== 'success') throw new Error(created.kind);
    const { subscription } = created.view;
    subscription.price = '2000.00'; // the amount the sandbox declines (2000 Do Not Honor)
    const declined = gateway.subscriptions.chargePeriod(
      subscription,
      '2026-04-10',
      new Date(Date.parse('2026-03-10T10:00:00Z') + 31 * DAY_MS),
    );
    expect(declined.kind === 'unsuccessful' ? declined.transaction.processorResponse?.code : declined.kind).toBe('2000');
    expect(subscription).toMatchObject({ currentBillingCycle: 1, nextBillingDate: '2026-04-10' });
  });

  it('a billing day of month that is not today makes the subscription Pending until then, unless startImmediately', () => {
    const { gateway, token } = setUp('2026-03-20T10:00:00Z');
    const pending = gateway.subscriptions.create({ planId: 'coffee-monthly', paymentMethodToken: token, billingDayOfMonth: 5 });
    expect(pending.kind === 'success' ? pending.view.subscription : null).toMatchObject({
      status: 'Pending',
      firstBillingDate: '2026-04-05',
      nextBillingDate: '2026-04-05',
      currentBillingCycle: 0,
    });
    const now = gateway.subscriptions.create({
      planId: 'coffee-monthly',
      paymentMethodToken: token,
      billingDayOfMonth: 5,
      options: { startImmediately: true },
    });
    expect(now.kind === 'success' ? now.view.subscription : null).toMatchObject({
      status: 'Active',
      billingPeriodStartDate: '2026-03-20',
      nextBillingDate: '2026-04-05',
      billingDayOfMonth: 5,
    });
  });
});
