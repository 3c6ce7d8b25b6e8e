// 3-D Secure on the server, against the sandbox gateway through the official SDK, on SQLite and PostgreSQL: the
// outcome each transaction recorded is stored on the attempt, and above THREE_D_SECURE_REQUIRED_ABOVE a sale without
// a liability shift is refused (`threeDSecure.required`; 402 three_d_secure_required), while a wallet, to which
// 3-D Secure does not apply, is charged.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

/** The provider's 3-D Secure fake nonces (gateway.md), as the sandbox answers them. */
const SHIFTED = 'fake-three-d-secure-visa-full-authentication-nonce';
const LOOKUP_ERROR = 'fake-three-d-secure-two-visa-error-on-lookup-nonce';
const PLAIN = 'fake-valid-visa-nonce';

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  '3-D Secure on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let app: FastifyInstance;
    let db: Db;

    beforeAll(async () => {
      await engine.setup();
    });
    afterAll(async () => {
      await engine.teardown();
    });
    appPerTest(engine, async (opened) => {
      db = opened.handle.db;
      // A mug is 12.00 EUR: one mug is at the threshold (no shift needed), two are above it.
      app = await buildApp(testConfig(opened.config, sandbox.gateway, { threeDSecureRequiredAbove: 1200 }), {
        database: opened.handle,
      });
      return app;
    });

    async function payMugs(quantity: number, nonce: string) {
      const client = new TestClient(app);
      const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity }] });
      const orderId = order.json<{ order: { id: string } }>().order.id;
      const body = { nonce, botcheck: await client.botcheckToken() };
      const response = await client.post(`/api/orders/${orderId}/payments`, body, {
        'idempotency-key': `key-${quantity}-${nonce}`,
      });
      const row = await db.selectFrom('payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
      return { response, row };
    }

    it('stores the liability shift and status the transaction recorded, and none for a sale without 3-D Secure', async () => {
      const shifted = await payMugs(2, SHIFTED);
      expect(shifted.response.statusCode).toBe(201);
      expect(shifted.row).toMatchObject({
        status: 'succeeded',
        payment_method_type: 'credit_card',
        three_d_secure_required: 1,
        three_d_secure_status: 'authenticate_successful',
        liability_shifted: 1,
        liability_shift_possible: 1,
      });

      // The merchant reads it in the admin API.
      const admin = new TestClient(app);
      await admin.post('/api/session', { email: 'admin@kassa.test', password: 'kassa-demo-admin' });
      const detail = await admin.get(`/api/admin/payments/${shifted.row.id}`);
      expect(detail.json()).toMatchObject({
        payment: {
          paymentMethodType: 'credit_card',
          threeDSecure: { status: 'authenticate_successful', liabilityShifted: true, liabilityShiftPossible: true },
        },
      });

      const plain = await payMugs(1, PLAIN);
      expect(plain.response.statusCode).toBe(201);
      expect(plain.row).toMatchObject({
        three_d_secure_required: 0,
        three_d_secure_status: null,
        liability_shifted: null,
        liability_shift_possible: null,
      });
    });

    it('refuses a sale above the threshold without a liability shift, with its own problem code and the outcome stored', async () => {
      for (const nonce of [PLAIN, LOOKUP_ERROR]) {
        const { response, row } = await payMugs(2, nonce);
        expect(response.statusCode).toBe(402);
        expect(response.headers['content-type']).toContain('application/problem+json');
        expect(response.json()).toMatchObject({
          code: 'three_d_secure_required',
          decline: { reason: 'gateway_rejected', gatewayRejectionReason: 'three_d_secure' },
          payment: { status: 'declined' },
        });
        expect(row).toMatchObject({ status: 'declined', three_d_secure_required: 1, gateway_rejection_reason: 'three_d_secure' });
      }
      const lookupError = await payMugs(2, LOOKUP_ERROR);
      expect(lookupError.row).toMatchObject({
        three_d_secure_status: 'lookup_error',
        liability_shifted: 0,
        liability_shift_possible: 0,
      });
    });

    it('charges a wallet above the threshold: 3-D Secure is for cards, so the gateway ignores the requirement for it', async () => {
      for (const [nonce, type] of [
        ['fake-paypal-one-time-nonce', 'paypal_account'],
        ['fake-venmo-account-nonce', 'venmo_account'],
        ['fake-apple-pay-visa-nonce', 'apple_pay_card'],
        ['fake-android-pay-visa-nonce', 'android_pay_card'],
      ] as const) {
        const { response, row } = await payMugs(2, nonce);
        expect(response.statusCode, nonce).toBe(201);
        expect(row).toMatchObject({ status: 'succeeded', payment_method_type: type, three_d_secure_status: null });
      }
    });

    it('takes a sale at the threshold without a liability shift (the merchant accepts the risk there)', async () => {
      const { response, row } = await payMugs(1, LOOKUP_ERROR);
      expect(response.statusCode).toBe(201);
      expect(row).toMatchObject({
        status: 'succeeded',
        three_d_secure_required: 0,
        three_d_secure_status: 'lookup_error',
        liability_shifted: 0,
      });
    });
  },
);
