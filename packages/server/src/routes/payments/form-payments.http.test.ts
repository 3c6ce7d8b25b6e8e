import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/connect.ts';
import { buildApp } from '../../index.ts';
import { TestClient } from '../../testing/client.ts';
import { testConfig } from '../../testing/config.ts';
import { appPerTest } from '../../testing/app-per-test.ts';
import { sqliteEngine } from '../../testing/engines.ts';
import { startSandboxProcess } from '../../testing/sandbox.ts';
import type { RunningSandbox } from '../../testing/sandbox.ts';

// The drop-in's form-post integration against the real sandbox gateway (through the SDK) and a real SQLite database.
describe('POST /api/form-payments (an HTML form of this site)', () => {
  const engine = sqliteEngine();
  let sandbox: RunningSandbox;
  let app: FastifyInstance;
  let db: Db;

  beforeAll(async () => {
    [sandbox] = await Promise.all([startSandboxProcess(), engine.setup()]);
  });
  afterAll(async () => {
    await Promise.all([sandbox?.stop(), engine.teardown()]);
  });
  appPerTest(engine, async (opened) => {
    db = opened.handle.db;
    app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
    return app;
  });

  async function orderOf(client: TestClient, productId = 'prd_mug'): Promise<string> {
    const response = await client.post('/api/orders', { items: [{ productId, quantity: 1 }] });
    return response.json<{ order: { id: string } }>().order.id;
  }

  /** What a browser sends for a form submitted from one of the server's own pages. */
  const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin', origin: 'http://localhost:80' };

  function formPost(client: TestClient, fields: Record<string, string>, headers: Record<string, string> = SAME_ORIGIN) {
    return app.inject({
      method: 'POST',
      url: '/api/form-payments',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        ...(client.cookie !== undefined ? { cookie: client.cookie } : {}),
        ...headers,
      },
      payload: new URLSearchParams(fields).toString(),
    });
  }

  async function fields(client: TestClient, orderId: string, nonce = 'fake-valid-visa-nonce') {
    return {
      order_id: orderId,
      payment_method_nonce: nonce,
      device_data: '{"device_session_id":"abc"}',
      botcheck: await client.botcheckToken(),
    };
  }

  async function orderStatus(orderId: string): Promise<{ status: string; payments: number }> {
    const order = await db.selectFrom('orders').select('status').where('id', '=', orderId).executeTakeFirstOrThrow();
    const payments = await db.selectFrom('payments').select('id').where('order_id', '=', orderId).execute();
    return { status: order.status, payments: payments.length };
  }

  it('takes the payment and answers 303 to the receipt; the same post again charges nothing more', async () => {
    const shopper = new TestClient(app);
    const orderId = await orderOf(shopper);
    const posted = await fields(shopper, orderId);
    const first = await formPost(shopper, posted);
    expect(first.statusCode).toBe(303);
    expect(first.headers.location).toBe(`/orders/${orderId}/receipt`);
    expect(await orderStatus(orderId)).toEqual({ status: 'paid', payments: 1 });

    // A double click or a reload of the POST: the nonce names the attempt, so the outcome is the first one's.
    const again = await formPost(shopper, posted);
    expect(again.statusCode).toBe(303);
    expect(again.headers.location).toBe(`/orders/${orderId}/receipt`);
    expect(await orderStatus(orderId)).toEqual({ status: 'paid', payments: 1 });
  });

  it('sends a declined payment back to the page with the error, the order still to pay', async () => {
    const shopper = new TestClient(app);
    const orderId = await orderOf(shopper, 'prd_espressomachine');
    const response = await formPost(shopper, await fields(shopper, orderId));
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe(`/plain-checkout.html?order=${orderId}&error=payment_declined`);
    expect(await orderStatus(orderId)).toEqual({ status: 'pending', payments: 1 });
  });

  it('sends an incomplete post or a failed bot-check back to the page, naming the problem, and charges nothing', async () => {
    const shopper = new TestClient(app);
    const orderId = await orderOf(shopper);
    const { payment_method_nonce: _nonce, ...withoutNonce } = await fields(shopper, orderId);
    const missing = await formPost(shopper, withoutNonce);
    expect(missing.statusCode).toBe(303);
    expect(missing.headers.location).toBe(`/plain-checkout.html?order=${orderId}&error=validation_failed`);

    const forged = await formPost(shopper, { ...(await fields(shopper, orderId)), botcheck: 'bm90IGEgdG9rZW4=' });
    expect(forged.headers.location).toBe(`/plain-checkout.html?order=${orderId}&error=botcheck_failed`);
    expect(await orderStatus(orderId)).toEqual({ status: 'pending', payments: 0 });
  });

  it('refuses a cross-site form post, a post that does not prove its origin, and JSON, and never touches the order', async () => {
    const shopper = new TestClient(app);
    const orderId = await orderOf(shopper);
    const posted = await fields(shopper, orderId);
    const refusals: Array<{ headers: Record<string, string>; status: number; code: string }> = [
      { headers: { 'sec-fetch-site': 'cross-site', origin: 'http://attacker.example' }, status: 403, code: 'cross_site_request' },
      { headers: { 'sec-fetch-site': 'same-site', origin: 'http://shop.localhost' }, status: 403, code: 'cross_site_request' },
      { headers: { origin: 'http://attacker.example' }, status: 403, code: 'cross_site_request' },
      // Neither header: not a browser of this site, and a form route is only for one.
      { headers: {}, status: 403, code: 'cross_site_request' },
    ];
    for (const { headers, status, code } of refusals) {
      const response = await formPost(shopper, posted, headers);
      expect(response.statusCode, JSON.stringify(headers)).toBe(status);
      expect(response.json()).toMatchObject({ code });
    }
    const json = await app.inject({
      method: 'POST',
      url: '/api/form-payments',
      headers: { 'content-type': 'application/json', cookie: shopper.cookie ?? '', ...SAME_ORIGIN },
      payload: JSON.stringify(posted),
    });
    expect(json.statusCode).toBe(415);
    expect(await orderStatus(orderId)).toEqual({ status: 'pending', payments: 0 });
  });

  it("sends someone else's order back as not found", async () => {
    const owner = new TestClient(app);
    const orderId = await orderOf(owner);
    const stranger = new TestClient(app);
    await orderOf(stranger);
    const response = await formPost(stranger, await fields(stranger, orderId));
    expect(response.headers.location).toBe(`/plain-checkout.html?order=${orderId}&error=order_not_found`);
    expect(await orderStatus(orderId)).toEqual({ status: 'pending', payments: 0 });
  });
});
