import type braintree from 'braintree';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { MAX_CHARGE_ATTEMPTS, RETRY_INTERVAL_DAYS } from '../core/billing.ts';
import type { Sandbox } from '../index.ts';
import { gatewayFor } from '../testing/sandbox.ts';
import { startSandboxWithReceiver } from '../testing/webhook-receiver.ts';
import type { SandboxWithReceiver, WebhookReceiver } from '../testing/webhook-receiver.ts';

// Recurring billing through the OFFICIAL SDK: the sandbox's clock is moved month by month, subscriptions are charged
// on their billing dates, a failing charge makes them Past Due and is retried, and each step is told by a webhook
// to a real local receiver (parsed with the SDK).

const DAY_MS = 24 * 60 * 60 * 1000;
let receiver: WebhookReceiver;
let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

const PLANS = [
  { id: 'coffee-monthly', name: 'Coffee', price: 2450 },
  { id: 'two-months', name: 'Two months only', price: 1000, numberOfBillingCycles: 2 },
];

let started: SandboxWithReceiver;

beforeAll(async () => {
  started = await startSandboxWithReceiver({ plans: PLANS });
  ({ sandbox, receiver } = started);
  gateway = gatewayFor(sandbox);
});
afterAll(() => started.close());
beforeEach(() => started.forget());

async function savedCard(): Promise<string> {
  const result = await gateway.customer.create({ firstName: 'Ada', paymentMethodNonce: 'fake-valid-visa-nonce' });
  const token = result.customer.creditCards?.[0]?.token;
  if (token === undefined) throw new Error('no saved card');
  return token;
}

/** Moves the sandbox's clock to 01:00 UTC on `date` (YYYY-MM-DD) and sends the webhooks that fell due. */
async function moveTo(date: string): Promise<void> {
  const now = sandbox.advanceClock(0).getTime();
  sandbox.advanceClock(Math.max(0, Date.parse(`${date}T01:00:00Z`) - now));
  await sandbox.deliverWebhooks();
}

/** The kinds (and subscription ids) of the webhooks received so far about `subscriptionId`. */
async function webhookKinds(subscriptionId: string): Promise<string[]> {
  await sandbox.deliverWebhooks();
  const parsed = await Promise.all(
    receiver.received.map(
      async (webhook) =>
        (await gateway.webhookNotification.parse(webhook.signature, webhook.payload)) as unknown as {
          kind: string;
          subscription?: braintree.Subscription;
        },
    ),
  );
  return parsed
    .filter((notification) => notification.subscription?.id === subscriptionId)
    .map((notification) => notification.kind);
}

describe('recurring billing', () => {
  it('charges each month on the billing date and says so by webhook', async () => {
    const created = await gateway.subscription.create({ paymentMethodToken: await savedCard(), planId: 'coffee-monthly' });
    const first = created.subscription;
    expect(first.transactions).toHaveLength(1);
    await moveTo(first.nextBillingDate as unknown as string);
    const second = await gateway.subscription.find(first.id);
    expect([second.status, second.currentBillingCycle, (second.transactions ?? []).length]).toEqual(['Active', 2, 2]);
    const charge = second.transactions?.[0];
    expect([charge?.amount, charge?.subscriptionId, charge?.recurring]).toEqual(['24.50', first.id, true]);
    await moveTo(second.nextBillingDate as unknown as string);
    expect((await gateway.subscription.find(first.id)).transactions).toHaveLength(3);
    expect(await webhookKinds(first.id)).toEqual(['subscription_charged_successfully', 'subscription_charged_successfully']);
  });

  it('does not charge before the billing date', async () => {
    const { subscription } = await gateway.subscription.create({
      paymentMethodToken: await savedCard(),
      planId: 'coffee-monthly',
    });
    await moveTo(
      new Date(Date.parse(`${subscription.nextBillingDate as unknown as string}T00:00:00Z`) - DAY_MS).toISOString().slice(0, 10),
    );
    expect((await gateway.subscription.find(subscription.id)).transactions).toHaveLength(1);
  });

  it('goes Past Due when a charge fails, retries every 10 days up to the limit, and tells each step', async () => {
    const today = sandbox.advanceClock(0);
    const firstBillingDate = new Date(today.getTime() + 3 * DAY_MS).toISOString().slice(0, 10);
    // 2000.00 is declined by the processor (the sandbox's amount-driven outcomes).
    const { subscription } = await gateway.subscription.create({
      paymentMethodToken: await savedCard(),
      planId: 'coffee-monthly',
      price: '2000.00',
      firstBillingDate: firstBillingDate as unknown as Date,
    });
    expect(subscription.status).toBe('Pending');
    await moveTo(firstBillingDate);
    const pastDue = await gateway.subscription.find(subscription.id);
    expect([pastDue.status, pastDue.failureCount, pastDue.balance]).toEqual(['Past Due', 1, '2000.00']);
    expect(pastDue.transactions?.[0]?.status).toBe('processor_declined');
    for (let attempt = 2; attempt <= MAX_CHARGE_ATTEMPTS + 1; attempt += 1) {
      sandbox.advanceClock(RETRY_INTERVAL_DAYS * DAY_MS);
    }
    const exhausted = await gateway.subscription.find(subscription.id);
    expect([exhausted.status, exhausted.failureCount, exhausted.transactions?.length]).toEqual([
      'Past Due',
      MAX_CHARGE_ATTEMPTS,
      MAX_CHARGE_ATTEMPTS,
    ]);
    expect(await webhookKinds(subscription.id)).toEqual([
      'subscription_went_past_due',
      'subscription_charged_unsuccessfully',
      ...Array<string>(MAX_CHARGE_ATTEMPTS - 1).fill('subscription_charged_unsuccessfully'),
    ]);
  });

  it('expires after its number of billing cycles, and a canceled one is told and never charged again', async () => {
    const { subscription: limited } = await gateway.subscription.create({
      paymentMethodToken: await savedCard(),
      planId: 'two-months',
    });
    const { subscription: canceled } = await gateway.subscription.create({
      paymentMethodToken: await savedCard(),
      planId: 'coffee-monthly',
    });
    await gateway.subscription.cancel(canceled.id);
    sandbox.advanceClock(70 * DAY_MS);
    const expired = await gateway.subscription.find(limited.id);
    expect([expired.status, expired.transactions?.length]).toEqual(['Expired', 2]);
    expect((await gateway.subscription.find(canceled.id)).transactions).toHaveLength(1);
    expect(await webhookKinds(limited.id)).toEqual(['subscription_charged_successfully', 'subscription_expired']);
    expect(await webhookKinds(canceled.id)).toEqual(['subscription_canceled']);
  });

  it('settles the charges with the batch', async () => {
    const { subscription } = await gateway.subscription.create({
      paymentMethodToken: await savedCard(),
      planId: 'coffee-monthly',
    });
    sandbox.advanceClock(DAY_MS + 1);
    const [charge] = (await gateway.subscription.find(subscription.id)).transactions ?? [];
    expect(charge?.status).toBe('settled');
  });
});
