// Wallet payments on the server, against the sandbox gateway through the official SDK, on SQLite and PostgreSQL: each
// wallet's nonce (the provider's fake nonces, as the checkout's approvals give them) pays through the same payment
// route as a card, and the payment records the wallet's type and what the receipt names.
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

const WALLETS = [
  { nonce: 'fake-paypal-one-time-nonce', type: 'paypal_account', card: { brand: 'PayPal', lastFour: '' } },
  { nonce: 'fake-venmo-account-nonce', type: 'venmo_account', card: { brand: 'Venmo', lastFour: '' } },
  {
    nonce: 'fake-apple-pay-visa-nonce',
    type: 'apple_pay_card',
    card: { brand: 'Apple Pay', lastFour: expect.stringMatching(/^\d{4}$/) },
  },
  {
    nonce: 'fake-android-pay-visa-nonce',
    type: 'android_pay_card',
    card: { brand: 'Google Pay', lastFour: expect.stringMatching(/^\d{4}$/) },
  },
] as const;

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'wallet payments on %s against the sandbox gateway',
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
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
      return app;
    });

    it.each(WALLETS)(
      'pays an order with $nonce: recorded as $type, the receipt naming the wallet',
      async ({ nonce, type, card }) => {
        const client = new TestClient(app);
        const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
        const orderId = order.json<{ order: { id: string } }>().order.id;
        const body = { nonce, botcheck: await client.botcheckToken() };
        const response = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': `key-${nonce}` });
        expect(response.statusCode).toBe(201);
        expect(response.json<{ payment: { status: string; card: unknown } }>().payment).toMatchObject({
          status: 'succeeded',
          card,
        });
        const row = await db.selectFrom('payments').selectAll().where('order_id', '=', orderId).executeTakeFirstOrThrow();
        expect(row).toMatchObject({ status: 'succeeded', payment_method_type: type, three_d_secure_status: null });
      },
    );
  },
);
