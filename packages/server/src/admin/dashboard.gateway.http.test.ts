import { randomUUID } from 'node:crypto';
import type braintree from 'braintree';
import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { sendAttempt } from '../payments/pay-order.ts';
import { insertPendingPayment } from '../payments/payments.repository.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { ENGINES } from '../testing/engines.ts';
import { startSandboxProcess } from '../testing/sandbox.ts';
import type { RunningSandbox } from '../testing/sandbox.ts';

interface Timeline {
  gatewayStatus: string | null;
  gatewayAnswered: boolean;
  events: { type: string; status?: string; kind?: string; amount?: { amount: number } | null }[];
}

/** What the dashboard asks of the gateway itself: a payment's status history and the subscriptions it bills. */
describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'the dashboard API on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let sandbox: RunningSandbox;
    let sdk: braintree.BraintreeGateway;
    let app: FastifyInstance;
    let db: Db;
    let cleanup: () => Promise<void>;

    beforeAll(async () => {
      [sandbox] = await Promise.all([startSandboxProcess(), engine.setup()]);
      sdk = createBraintreeClient(sandbox.gateway);
    });
    afterAll(async () => {
      await Promise.all([sandbox?.stop(), engine.teardown()]);
    });
    beforeEach(async () => {
      const opened = await engine.open();
      db = opened.handle.db;
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
      cleanup = async () => {
        await app.close();
        await opened.cleanup();
      };
    });
    afterEach(() => cleanup());

    async function signedIn(email: string, password: string): Promise<TestClient> {
      const client = new TestClient(app);
      expect((await client.post('/api/session', { email, password })).statusCode).toBe(200);
      return client;
    }
    const admin = () => signedIn('admin@kassa.test', 'kassa-demo-admin');

    it("shows a payment's timeline: the attempt, every gateway status, the partial refund and the settlement webhook, in order", async () => {
      const shopper = await signedIn('shopper@kassa.test', 'kassa-demo-shopper');
      const order = (await shopper.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 2 }] })).json<{
        order: { id: string; total: { amount: number; currency: string } };
      }>().order;
      const pending = await insertPendingPayment(db, {
        orderId: order.id,
        amount: order.total,
        idempotencyRef: null,
        nonce: 'fake-valid-visa-nonce',
        deviceData: null,
        merchantAccountId: null,
      });
      if (pending === undefined) throw new Error('attempt not inserted');
      const paid = await sendAttempt({ db, gateway: new BraintreeGatewayAdapter(sdk) }, pending, { resend: false });
      const transactionId = paid.transaction_id ?? '';
      await sdk.testing.settle(transactionId);
      // The gateway's own notification, through the real webhook route.
      const notification = await sdk.webhookTesting.sampleNotification('transaction_settled', transactionId);
      const posted = await app.inject({
        method: 'POST',
        url: '/api/gateway/webhooks',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ bt_signature: notification.bt_signature, bt_payload: notification.bt_payload }).toString(),
      });
      expect(posted.json()).toEqual({ status: 'processed' });
      const client = await admin();
      expect(
        (await client.post(`/api/admin/payments/${paid.id}/refund`, { amount: 700 }, { 'idempotency-key': randomUUID() }))
          .statusCode,
      ).toBe(201);

      const detail = (await client.get(`/api/admin/payments/${paid.id}`)).json<{
        payment: { status: string; settlementStatus: string | null };
        timeline: Timeline;
      }>();
      expect(detail.payment).toMatchObject({ status: 'partially_refunded', settlementStatus: 'settled' });
      expect(detail.timeline).toMatchObject({ gatewayStatus: 'settled', gatewayAnswered: true });
      const events = detail.timeline.events.map((event) => [event.type, event.status ?? event.kind ?? event.amount?.amount]);
      expect(events.slice(0, 1)).toEqual([['attempt', 'partially_refunded']]);
      const statuses = events.filter(([type]) => type === 'gateway_status').map(([, status]) => status);
      expect(statuses).toEqual(
        ['authorized', 'submitted_for_settlement', 'settling', 'settled'].filter((status) => statuses.includes(status)),
      );
      expect(statuses).toEqual(expect.arrayContaining(['authorized', 'settled']));
      expect(events).toEqual(
        expect.arrayContaining([
          ['webhook', 'transaction_settled'],
          ['refund', 700],
        ]),
      );
      // The refund came after the settlement it needed.
      const index = (type: string) => events.findIndex(([kind]) => kind === type);
      expect(index('refund')).toBeGreaterThan(
        events.findIndex(([type, status]) => type === 'gateway_status' && status === 'settled'),
      );
      expect(
        detail.timeline.events.find((event) => event.type === 'gateway_status' && event.status === 'authorized')?.amount,
      ).toEqual({ amount: order.total.amount, currency: 'EUR' });
    });

    it('lists the subscriptions the gateway bills with their plan and customer, filtered by status', async () => {
      const shopper = await signedIn('shopper@kassa.test', 'kassa-demo-shopper');
      const created = await shopper.post(
        '/api/subscriptions',
        { planId: 'coffee-monthly', nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken('payment') },
        { 'idempotency-key': randomUUID() },
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ subscription: { id: string } }>().subscription.id;
      const client = await admin();

      type List = {
        subscriptions: {
          id: string;
          planName: string;
          status: string;
          price: { amount: number };
          failureCount: number;
          customer: { email: string } | null;
        }[];
      };
      const active = (await client.get('/api/admin/subscriptions?status=Active')).json<List>();
      expect(active.subscriptions.find((s) => s.id === id)).toMatchObject({
        planName: 'Coffee beans, 1 kg, every month',
        status: 'Active',
        price: { amount: 2450, currency: 'EUR' },
        failureCount: 0,
        customer: { email: 'shopper@kassa.test' },
      });
      expect(active.subscriptions.every((s) => s.status === 'Active')).toBe(true);
      expect(
        (await client.get('/api/admin/subscriptions?status=Canceled')).json<List>().subscriptions.map((s) => s.id),
      ).not.toContain(id);
      expect((await client.get('/api/admin/subscriptions?status=Lost')).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'status' }],
      });
    });
  },
);
