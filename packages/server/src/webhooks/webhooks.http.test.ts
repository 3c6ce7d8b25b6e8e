import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { disputesOfPayment } from '../admin/disputes.query.ts';
import { createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { recordOutcome } from '../payments/payments.repository.ts';
import { pendingAttempt } from '../testing/admin.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { freePort } from '../testing/postgres.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

const WEBHOOKS = '/api/gateway/webhooks';
const DAY_MS = 24 * 60 * 60 * 1000;

let keys = 0;

/** Polls until `read` gives a value `done` accepts: the sandbox delivers its webhooks on its own schedule. */
async function eventually<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** The form the gateway posts. */
function form(fields: { bt_signature?: string; bt_payload?: string }): string {
  const params = new URLSearchParams();
  if (fields.bt_signature !== undefined) params.set('bt_signature', fields.bt_signature);
  if (fields.bt_payload !== undefined) params.set('bt_payload', fields.bt_payload);
  return params.toString();
}

// The server listens on this port in every test, of both engines, so the sandbox (started once) posts its notifications
// to it.
const port = await freePort();
const sandbox = sandboxPerFile({
  env: { SANDBOX_WEBHOOK_URL: `http://127.0.0.1:${port}${WEBHOOKS}`, SANDBOX_TEST_CONTROLS: '1' },
});

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'gateway webhooks on %s from the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let app: FastifyInstance;
    let db: Db;
    let logLines: string[];

    beforeAll(async () => {
      await engine.setup();
    });
    afterAll(async () => {
      await engine.teardown();
    });
    appPerTest(engine, async (opened) => {
      db = opened.handle.db;
      logLines = [];
      const logger = pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) });
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle, logger });
      await app.listen({ port, host: '127.0.0.1' });
      return app;
    });

    const sdk = () => createBraintreeClient(sandbox.gateway);

    /** Moves the sandbox's clock: what falls due in between (recurring charges, retries) is done, and told by webhook. */
    async function advanceClock(days: number): Promise<void> {
      const moved = await fetch(`${sandbox.origin}/__sandbox/clock`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ advanceMs: days * DAY_MS }),
      });
      expect(moved.status).toBe(200);
    }

    /** A guest's paid order: the payment's id and its gateway transaction (submitted for settlement). */
    async function paidPayment(): Promise<{ id: string; transactionId: string }> {
      const guest = new TestClient(app);
      const order = await guest.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      expect(order.statusCode).toBe(201);
      const orderId = order.json<{ order: { id: string } }>().order.id;
      const body = {
        nonce: 'fake-valid-visa-nonce',
        deviceData: '{"device_session_id":"abc"}',
        botcheck: await guest.botcheckToken(),
      };
      const paid = await guest.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': `wh-${++keys}` });
      expect(paid.statusCode).toBe(201);
      return paid.json<{ payment: { id: string; transactionId: string } }>().payment;
    }

    const settlementOf = (paymentId: string) =>
      db
        .selectFrom('payments')
        .select(['settlement_status', 'settlement_status_at'])
        .where('id', '=', paymentId)
        .executeTakeFirstOrThrow();

    const post = (payload: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: WEBHOOKS,
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload,
      });

    it('records a settlement and a declined settlement the sandbox posts after testing.settle / settlementDecline', async () => {
      const settled = await paidPayment();
      const declined = await paidPayment();
      expect((await settlementOf(settled.id)).settlement_status).toBeNull();

      await sdk().testing.settle(settled.transactionId);
      await sdk().testing.settlementDecline(declined.transactionId);

      expect(
        (
          await eventually(
            () => settlementOf(settled.id),
            (row) => row.settlement_status !== null,
          )
        ).settlement_status,
      ).toBe('settled');
      expect(
        (
          await eventually(
            () => settlementOf(declined.id),
            (row) => row.settlement_status !== null,
          )
        ).settlement_status,
      ).toBe('settlement_declined');
      const recorded = await db.selectFrom('webhook_notifications').select(['kind', 'subject_id']).orderBy('kind').execute();
      expect(recorded).toEqual(
        expect.arrayContaining([
          { kind: 'transaction_settled', subject_id: settled.transactionId },
          { kind: 'transaction_settlement_declined', subject_id: declined.transactionId },
        ]),
      );
    });

    it("applies a settlement the gateway told before the sale's answer was recorded, when it is (a sale that settles at once)", async () => {
      const pending = await pendingAttempt(db, new TestClient(app));
      // The gateway's notification arrives while the sale is being answered: no payment has its transaction's id yet.
      const told = await post(form(await sdk().webhookTesting.sampleNotification('transaction_settled', 'tx_settled_at_once')));
      expect(told.json()).toEqual({ status: 'processed' });
      expect(await db.selectFrom('payments').select('id').where('settlement_status', 'is not', null).execute()).toEqual([]);

      const { payment: saved } = await recordOutcome(db, pending, {
        kind: 'succeeded',
        transactionId: 'tx_settled_at_once',
        paymentMethodType: 'credit_card',
        card: { brand: 'Visa', lastFour: '1111' },
        threeDSecure: null,
      });
      const notifiedAt = (
        await db
          .selectFrom('webhook_notifications')
          .select('notified_at')
          .where('subject_id', '=', 'tx_settled_at_once')
          .executeTakeFirstOrThrow()
      ).notified_at;
      expect([saved.settlement_status, saved.settlement_status_at]).toEqual(['settled', notifiedAt]);
      expect(await settlementOf(saved.id)).toEqual({ settlement_status: 'settled', settlement_status_at: notifiedAt });
      // The attempt answered is the row as stored, every column of it.
      expect(saved).toEqual(await db.selectFrom('payments').selectAll().where('id', '=', saved.id).executeTakeFirstOrThrow());
    });

    it('processes the same notification once when it is delivered twice, one after the other and at the same moment', async () => {
      const payment = await paidPayment();
      const sample = await sdk().webhookTesting.sampleNotification('transaction_settled', payment.transactionId);
      const body = form(sample);

      const first = await post(body);
      expect(first.statusCode).toBe(200);
      expect(first.json()).toEqual({ status: 'processed' });
      expect((await settlementOf(payment.id)).settlement_status).toBe('settled');
      const again = await post(body);
      expect(again.json()).toEqual({ status: 'duplicate' });

      const declined = form(
        await sdk().webhookTesting.sampleNotification('transaction_settlement_declined', payment.transactionId),
      );
      const racing = await Promise.all([post(declined), post(declined), post(declined)]);
      expect(racing.map((r) => r.statusCode)).toEqual([200, 200, 200]);
      expect(racing.map((r) => r.json<{ status: string }>().status).sort()).toEqual(['duplicate', 'duplicate', 'processed']);

      const rows = await db
        .selectFrom('webhook_notifications')
        .select('kind')
        .where('subject_id', '=', payment.transactionId)
        .execute();
      expect(rows.map((r) => r.kind).sort()).toEqual(['transaction_settled', 'transaction_settlement_declined']);
      expect((await settlementOf(payment.id)).settlement_status).toBe('settlement_declined');
    });

    it('refuses a tampered and an unsigned notification with problem+json, and logs neither payload', async () => {
      const payment = await paidPayment();
      const sample = await sdk().webhookTesting.sampleNotification('transaction_settled', payment.transactionId);
      // Another transaction's id in the payload, the original signature kept.
      const xml = Buffer.from(sample.bt_payload, 'base64').toString('utf8').replaceAll(payment.transactionId, 'someoneelse');
      const tamperedPayload = Buffer.from(xml).toString('base64');

      const tampered = await post(form({ bt_signature: sample.bt_signature, bt_payload: tamperedPayload }));
      expect(tampered.statusCode).toBe(401);
      expect(tampered.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(tampered.json()).toMatchObject({ code: 'webhook_signature_invalid' });

      const unsigned = await post(form({ bt_payload: sample.bt_payload }));
      expect(unsigned.statusCode).toBe(400);
      expect(unsigned.json()).toMatchObject({ code: 'validation_failed' });

      const forgedKey = await post(
        form({ bt_signature: `${sandbox.gateway.publicKey}|${'0'.repeat(40)}`, bt_payload: sample.bt_payload }),
      );
      expect(forgedKey.statusCode).toBe(401);

      // Larger than the API's usual 64 KiB body (a subscription's subject lists all its charges): read, then refused.
      const large = await post(form({ bt_signature: sample.bt_signature, bt_payload: 'A'.repeat(100 * 1024) }));
      expect(large.statusCode).toBe(401);

      expect(await db.selectFrom('webhook_notifications').select('id').execute()).toEqual([]);
      expect((await settlementOf(payment.id)).settlement_status).toBeNull();
      const log = logLines.join('');
      expect(log).toContain('webhook notification refused');
      expect(log).not.toContain(tamperedPayload);
      expect(log).not.toContain(sample.bt_payload);
    });

    it("is exempt from the JSON-only rule as a form post, and only that: JSON and a browser's cross-site post are refused", async () => {
      const sample = await sdk().webhookTesting.sampleNotification('subscription_canceled', 'sub_cross');
      const asJson = await app.inject({
        method: 'POST',
        url: WEBHOOKS,
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(sample),
      });
      expect(asJson.statusCode).toBe(415);
      const crossSite = await post(form(sample), { 'sec-fetch-site': 'cross-site', origin: 'https://evil.example' });
      expect(crossSite.statusCode).toBe(403);
      expect(crossSite.json()).toMatchObject({ code: 'cross_site_request' });
      // Another route still refuses a form body.
      const formOrder = await app.inject({
        method: 'POST',
        url: '/api/orders',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: 'a=b',
      });
      expect(formOrder.statusCode).toBe(415);
      expect((await post(form(sample))).json()).toEqual({ status: 'processed' });
    });

    it("accepts the SDK's sample notifications: subscription statuses and a dispute against the payment", async () => {
      const payment = await paidPayment();
      for (const kind of ['subscription_charged_unsuccessfully', 'subscription_went_past_due'] as const) {
        const response = await post(form(await sdk().webhookTesting.sampleNotification(kind, 'sub_sample')));
        expect(response.json()).toEqual({ status: 'processed' });
      }
      const state = await db
        .selectFrom('subscription_states')
        .selectAll()
        .where('id', '=', 'sub_sample')
        .executeTakeFirstOrThrow();
      expect(state).toMatchObject({ status: 'Past Due', last_event: 'subscription_went_past_due' });

      // The SDK's dispute sample names the transaction by the id it is given.
      const dispute = await post(form(await sdk().webhookTesting.sampleNotification('dispute_opened', payment.transactionId)));
      expect(dispute.json()).toEqual({ status: 'processed' });
      const [recorded, ...others] = await disputesOfPayment(db, payment.id);
      expect(others).toEqual([]);
      expect(recorded).toMatchObject({
        transactionId: payment.transactionId,
        payment: { id: payment.id },
        status: 'open',
        kind: 'chargeback',
        reason: 'fraud',
        amount: { amount: 25000, currency: 'USD' },
      });
    });

    it("marks a subscription Past Due when the sandbox's recurring charge fails (its clock moved past the billing date)", async () => {
      const gateway = sdk();
      const customer = await gateway.customer.create({ paymentMethodNonce: 'fake-valid-visa-nonce' });
      expect(customer.success, customer.message).toBe(true);
      const token = customer.customer.paymentMethods?.[0]?.token ?? '';
      const clock = (await (await fetch(`${sandbox.origin}/__sandbox/clock`)).json()) as { now: string };
      // The provider takes the calendar date as text (YYYY-MM-DD); the SDK's types only name Date.
      const firstBillingDate = new Date(Date.parse(clock.now) + 3 * DAY_MS).toISOString().slice(0, 10) as unknown as Date;
      // 2000.00 is a processor-declined amount at the sandbox (gateway.md): the first recurring charge fails.
      const created = await gateway.subscription.create({
        planId: 'coffee-monthly',
        paymentMethodToken: token,
        price: '2000.00',
        firstBillingDate,
      });
      expect(created.success, created.message).toBe(true);
      const id = created.subscription.id;

      await advanceClock(5);

      // Both notifications of the failed charge arrive (in either order); the kept status is the past-due one.
      const kinds = await eventually(
        () => db.selectFrom('webhook_notifications').select('kind').where('subject_id', '=', id).execute(),
        (rows) => rows.length >= 2,
      );
      expect(kinds.map((k) => k.kind).sort()).toEqual(['subscription_charged_unsuccessfully', 'subscription_went_past_due']);
      const state = await db.selectFrom('subscription_states').selectAll().where('id', '=', id).executeTakeFirst();
      expect(state).toMatchObject({ status: 'Past Due', plan_id: 'coffee-monthly', failure_count: 1 });
    });

    it('bills a month: the recurring charge goes through, a failing one goes Past Due and is retried, and the admin list follows', async () => {
      const shopper = new TestClient(app);
      expect(
        (await shopper.post('/api/session', { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' })).statusCode,
      ).toBe(200);
      const subscribed = await shopper.post(
        '/api/subscriptions',
        { planId: 'coffee-monthly', nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken('payment') },
        { 'idempotency-key': `wh-${++keys}` },
      );
      expect(subscribed.statusCode, subscribed.body).toBe(201);
      const paidId = subscribed.json<{ subscription: { id: string } }>().subscription.id;
      // A second subscription on the same card whose charges fail: 2000.00 is a processor-declined amount at the
      // sandbox (gateway.md), and the shop offers only its plan's price, so it is made with the SDK.
      const gateway = sdk();
      const token = (await gateway.subscription.find(paidId)).paymentMethodToken;
      const clock = (await (await fetch(`${sandbox.origin}/__sandbox/clock`)).json()) as { now: string };
      const firstBillingDate = new Date(Date.parse(clock.now) + 3 * DAY_MS).toISOString().slice(0, 10) as unknown as Date;
      const failing = await gateway.subscription.create({
        planId: 'coffee-monthly',
        paymentMethodToken: token,
        price: '2000.00',
        firstBillingDate,
      });
      expect(failing.success, failing.message).toBe(true);
      const failingId = failing.subscription.id;

      // A month and two days on the sandbox's clock, day 4, 14, 24 and 32: the failing one's first charge and its two
      // retries (10 days apart, each falling due after the clock moved past it), then the paid one's second charge.
      for (const days of [4, 10, 10, 8]) await advanceClock(days);

      const kindsOf = (id: string) =>
        db
          .selectFrom('webhook_notifications')
          .select('kind')
          .where('subject_id', '=', id)
          .execute()
          .then((rows) => rows.map((row) => row.kind).sort());
      expect(
        await eventually(
          () => kindsOf(paidId),
          (kinds) => kinds.length >= 1,
        ),
      ).toEqual(['subscription_charged_successfully']);
      expect(
        await eventually(
          () => kindsOf(failingId),
          (kinds) => kinds.length >= 4,
        ),
      ).toEqual([
        'subscription_charged_unsuccessfully',
        'subscription_charged_unsuccessfully',
        'subscription_charged_unsuccessfully',
        'subscription_went_past_due',
      ]);
      const states = await db
        .selectFrom('subscription_states')
        .select(['id', 'status', 'failure_count', 'last_event'])
        .where('id', 'in', [paidId, failingId])
        .execute();
      expect(states.find((state) => state.id === paidId)).toMatchObject({
        status: 'Active',
        last_event: 'subscription_charged_successfully',
      });
      expect(states.find((state) => state.id === failingId)).toMatchObject({ status: 'Past Due', failure_count: 3 });

      // The merchant's list, as the gateway bills them, with the last webhook of each.
      const admin = new TestClient(app);
      expect((await admin.post('/api/session', { email: 'admin@kassa.test', password: 'kassa-demo-admin' })).statusCode).toBe(
        200,
      );
      type Listed = { id: string; status: string; failureCount: number; balance: { amount: number }; lastEvent: string | null };
      const listed = (await admin.get('/api/admin/subscriptions?limit=100')).json<{ subscriptions: Listed[] }>().subscriptions;
      expect(listed.find((s) => s.id === paidId)).toMatchObject({
        status: 'Active',
        failureCount: 0,
        lastEvent: 'subscription_charged_successfully',
      });
      expect(listed.find((s) => s.id === failingId)).toMatchObject({
        status: 'Past Due',
        failureCount: 3,
        balance: { amount: 200000, currency: 'EUR' },
      });
    });
  },
);
