import type braintree from 'braintree';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { sendAttempt } from '../payments/pay-order.ts';
import { pendingAttempt } from '../testing/admin.ts';
import { DEMO_ADMIN, DEMO_SHOPPER, signedIn } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

interface Done {
  refund: { id: string; kind: string; amount: { amount: number; currency: string }; transactionId: string | null };
  payment: { id: string; status: string; amount: { amount: number } };
}

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'refunds and voids on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let sdk: braintree.BraintreeGateway;
    let app: FastifyInstance;
    let db: Db;

    beforeAll(async () => {
      await engine.setup();
      sdk = createBraintreeClient(sandbox.gateway);
    });
    afterAll(async () => {
      await engine.teardown();
    });
    appPerTest(engine, async (opened) => {
      db = opened.handle.db;
      app = await buildApp(testConfig(opened.config, sandbox.gateway), {
        database: opened.handle,
        gateway: new BraintreeGatewayAdapter(sdk),
      });
      return app;
    });

    const admin = () => signedIn(app, DEMO_ADMIN);

    /** A shopper's order paid at the sandbox (a real sale, submitted for settlement); settled through the SDK if asked. */
    async function paid({
      settled,
      quantity = 1,
    }: {
      settled: boolean;
      quantity?: number;
    }): Promise<{ id: string; orderId: string; amount: number; transactionId: string }> {
      const pending = await pendingAttempt(db, await signedIn(app, DEMO_SHOPPER), quantity);
      const payment = await sendAttempt({ db, gateway: new BraintreeGatewayAdapter(sdk) }, pending, { resend: false });
      expect(payment.status).toBe('succeeded');
      const transactionId = payment.transaction_id ?? '';
      if (settled) expect((await sdk.testing.settle(transactionId)).transaction.status).toBe('settled');
      return { id: payment.id, orderId: pending.order_id, amount: pending.amount, transactionId };
    }

    const orderStatus = async (orderId: string) =>
      (await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow()).status;
    const refundIdsAtGateway = async (transactionId: string) => (await sdk.transaction.find(transactionId)).refundIds;

    it('refunds a settled payment in full: one credit at the gateway, the payment and order refunded, shown on its detail and audited', async () => {
      const payment = await paid({ settled: true });
      const client = await admin();
      const response = await client.post(`/api/admin/payments/${payment.id}/refund`, {}, { 'idempotency-key': 'full' });
      expect(response.statusCode).toBe(201);
      const done = response.json<Done>();
      expect(done).toMatchObject({
        refund: { kind: 'refund', amount: { amount: payment.amount, currency: 'EUR' } },
        payment: { id: payment.id, status: 'refunded' },
      });
      expect(await refundIdsAtGateway(payment.transactionId)).toEqual([done.refund.transactionId]);
      expect(await orderStatus(payment.orderId)).toBe('refunded');

      const detail = (await client.get(`/api/admin/payments/${payment.id}`)).json<{
        refunds: unknown[];
        adminActions: { action: string; status: number }[];
      }>();
      expect(detail.refunds).toEqual([
        expect.objectContaining({ id: done.refund.id, kind: 'refund', transactionId: done.refund.transactionId }),
      ]);
      expect(detail.adminActions).toEqual([expect.objectContaining({ action: 'payments.refund', status: 201 })]);
    });

    it('refunds in two parts up to the amount, then refuses a third and anything over what is left', async () => {
      const payment = await paid({ settled: true, quantity: 2 });
      const client = await admin();
      const refund = (key: string, amount: number) =>
        client.post(`/api/admin/payments/${payment.id}/refund`, { amount }, { 'idempotency-key': key });

      expect((await refund('over', payment.amount + 1)).json()).toMatchObject({ status: 422, code: 'refund_exceeds_amount' });
      const first = await refund('part-1', 500);
      expect(first.json<Done>()).toMatchObject({
        refund: { amount: { amount: 500 } },
        payment: { status: 'partially_refunded' },
      });
      expect(await orderStatus(payment.orderId)).toBe('paid');
      expect((await refund('over-rest', payment.amount - 499)).json()).toMatchObject({
        status: 422,
        code: 'refund_exceeds_amount',
      });
      const second = await refund('part-2', payment.amount - 500);
      expect(second.json<Done>()).toMatchObject({
        refund: { amount: { amount: payment.amount - 500 } },
        payment: { status: 'refunded' },
      });
      expect((await refund('part-3', 1)).json()).toMatchObject({ status: 409, code: 'already_refunded' });

      expect(await refundIdsAtGateway(payment.transactionId)).toHaveLength(2);
      const rows = await db
        .selectFrom('refunds')
        .select('amount')
        .where('payment_id', '=', payment.id)
        .orderBy('created_at')
        .execute();
      expect(rows.map((row) => row.amount)).toEqual([500, payment.amount - 500]);
      expect(await orderStatus(payment.orderId)).toBe('refunded');
    });

    it("maps the gateway's refusal when more was refunded at the gateway than Kassa knows (91521 refund_exceeds_amount)", async () => {
      const payment = await paid({ settled: true });
      // A refund made in the gateway's own control panel: Kassa has no row of it, the gateway refuses what overlaps it.
      expect((await sdk.transaction.refund(payment.transactionId, '1.00')).success).toBe(true);
      const client = await admin();
      const response = await client.post(`/api/admin/payments/${payment.id}/refund`, {}, { 'idempotency-key': 'all' });
      expect(response.json()).toMatchObject({ status: 422, code: 'refund_exceeds_amount' });
      expect(await db.selectFrom('refunds').selectAll().execute()).toEqual([]);
      expect(await refundIdsAtGateway(payment.transactionId)).toHaveLength(1);
    });

    it("refuses to refund a payment that has not settled, with the gateway's reason, and records nothing", async () => {
      const payment = await paid({ settled: false });
      const client = await admin();
      const early = () => client.post(`/api/admin/payments/${payment.id}/refund`, {}, { 'idempotency-key': 'early' });
      const response = await early();
      expect(response.json()).toMatchObject({ status: 409, code: 'refund_not_settled' });
      expect(await db.selectFrom('refunds').selectAll().execute()).toEqual([]);
      expect((await client.get(`/api/admin/payments/${payment.id}`)).json()).toMatchObject({
        payment: { status: 'succeeded' },
        refunds: [],
      });
      // Once it settled, the same key replays its first answer (the refusal) and gives nothing back; a new key refunds.
      await sdk.testing.settle(payment.transactionId);
      const replayed = await early();
      expect([replayed.statusCode, replayed.headers['idempotent-replayed'], replayed.json().code]).toEqual([
        409,
        'true',
        'refund_not_settled',
      ]);
      expect(await refundIdsAtGateway(payment.transactionId)).toHaveLength(0);
      const settled = await client.post(`/api/admin/payments/${payment.id}/refund`, {}, { 'idempotency-key': 'settled' });
      expect(settled.statusCode, settled.body).toBe(201);
      expect(await refundIdsAtGateway(payment.transactionId)).toHaveLength(1);
    });

    it("voids a payment before settlement (the gateway's transaction voided, payment and order voided) and refuses a void after it", async () => {
      const unsettled = await paid({ settled: false });
      const client = await admin();
      const voided = await client.post(`/api/admin/payments/${unsettled.id}/void`, undefined, { 'idempotency-key': 'void-1' });
      expect(voided.statusCode).toBe(201);
      expect(voided.json<Done>()).toMatchObject({
        refund: { kind: 'void', amount: { amount: unsettled.amount }, transactionId: null },
        payment: { status: 'voided' },
      });
      expect((await sdk.transaction.find(unsettled.transactionId)).status).toBe('voided');
      expect(await orderStatus(unsettled.orderId)).toBe('voided');
      expect(
        (await client.post(`/api/admin/payments/${unsettled.id}/refund`, {}, { 'idempotency-key': 'after-void' })).json(),
      ).toMatchObject({ status: 409, code: 'payment_not_refundable' });

      const settled = await paid({ settled: true });
      const late = await client.post(`/api/admin/payments/${settled.id}/void`, undefined, { 'idempotency-key': 'void-2' });
      expect(late.json()).toMatchObject({ status: 409, code: 'void_not_allowed' });
      expect((await sdk.transaction.find(settled.transactionId)).status).toBe('settled');
      expect(await orderStatus(settled.orderId)).toBe('paid');
    });

    it('answers a repeated Idempotency-Key with the first answer and refunds once', async () => {
      const payment = await paid({ settled: true });
      const client = await admin();
      const send = () => client.post(`/api/admin/payments/${payment.id}/refund`, { amount: 300 }, { 'idempotency-key': 'same' });
      const first = await send();
      const again = await send();
      expect(first.statusCode).toBe(201);
      expect(again.statusCode).toBe(201);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(first.json());
      expect(await refundIdsAtGateway(payment.transactionId)).toHaveLength(1);
      expect(await db.selectFrom('refunds').selectAll().execute()).toHaveLength(1);
      expect(
        (await client.post(`/api/admin/payments/${payment.id}/refund`, { amount: 301 }, { 'idempotency-key': 'same' })).json(),
      ).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    });

    it('answers 403 to a shopper asking to refund or void, and the gateway sees nothing', async () => {
      const payment = await paid({ settled: true });
      const shopper = await signedIn(app, DEMO_SHOPPER);
      for (const action of ['refund', 'void']) {
        const response = await shopper.post(
          `/api/admin/payments/${payment.id}/${action}`,
          {},
          { 'idempotency-key': `shopper-${action}` },
        );
        expect(response.json(), action).toMatchObject({ status: 403, code: 'forbidden' });
      }
      expect(await refundIdsAtGateway(payment.transactionId)).toEqual([]);
      expect((await sdk.transaction.find(payment.transactionId)).status).toBe('settled');
    });
  },
);
