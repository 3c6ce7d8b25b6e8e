import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';

// Issue 9: orders planted in a guest session moved into the victim's account when the victim signed in on that
// browser. They now move only with the shopper's consent (keepGuestOrders), after GET /api/session has listed them.

const SHOPPER = { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' };
const MUG = { items: [{ productId: 'prd_mug', quantity: 2 }] };

describe.each(ENGINES.map((make) => [make().name, make] as const))('guest orders at sign-in on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  appPerTest(engine, async (opened) => {
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    return app;
  });

  async function guestWithOrder(): Promise<{
    browser: TestClient;
    order: { id: string; number: number; total: { amount: number; currency: string } };
  }> {
    const browser = new TestClient(app);
    const { order } = (await browser.post('/api/orders', MUG)).json<{
      order: { id: string; number: number; total: { amount: number; currency: string } };
    }>();
    return { browser, order };
  }

  it('an order planted in the browser stays out of the account of whoever signs in without consenting', async () => {
    const { browser, order } = await guestWithOrder(); // the attacker's session, planted in the victim's browser
    expect((await browser.post('/api/session', SHOPPER)).statusCode).toBe(200);
    expect((await browser.get(`/api/orders/${order.id}`)).statusCode).toBe(404);
    // Nor does consenting later bring it in: the guest session ended at sign-in.
    expect((await browser.get('/api/session')).json()).toMatchObject({ account: { email: SHOPPER.email }, guestOrders: [] });
  });

  it("lists the guest's orders, and moves them with consent at sign-in and at sign-up", async () => {
    const { browser, order } = await guestWithOrder();
    expect((await browser.get('/api/session')).json()).toEqual({
      account: null,
      guestOrders: [{ number: order.number, total: order.total, createdAt: expect.any(String) }],
    });
    expect((await browser.post('/api/session', { ...SHOPPER, keepGuestOrders: true })).statusCode).toBe(200);
    expect((await browser.get(`/api/orders/${order.id}`)).json()).toMatchObject({ order: { id: order.id } });

    const second = await guestWithOrder();
    const created = await second.browser.signUp(
      { email: 'grace@kassa.test', password: 'correct horse', name: 'Grace' },
      { keepGuestOrders: true },
    );
    expect(created.statusCode).toBe(201);
    expect((await second.browser.get(`/api/orders/${second.order.id}`)).statusCode).toBe(200);

    const third = await guestWithOrder();
    await third.browser.signUp({ email: 'ada@kassa.test', password: 'correct horse', name: 'Ada' });
    expect((await third.browser.get(`/api/orders/${third.order.id}`)).statusCode).toBe(404);
  });
});
