import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

// Issue 9: 300 guest orders and 300 client tokens from one IP in 1.2 s. Orders and checkout sessions are now counted
// per session and per IP (defaults: 30 and 60 an hour), in the database.

const ORDER = { items: [{ productId: 'prd_mug', quantity: 1 }] };

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))('orders and checkout sessions on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  beforeAll(async () => {
    await engine.setup();
  });
  afterAll(async () => {
    await engine.teardown();
  });
  appPerTest(engine, async (opened) => {
    const gateway = new BraintreeGatewayAdapter(createBraintreeClient(sandbox.gateway));
    app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle, gateway });
    return app;
  });

  const order = (ip: string, cookie?: string) =>
    app.inject({
      method: 'POST',
      url: '/api/orders',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
      payload: ORDER,
    });

  it('65 guest orders from one IP, a fresh session each: 60 made, the other 5 refused; another IP still orders', async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 65; attempt += 1) statuses.push((await order('203.0.113.5')).statusCode);
    console.log(`orders from one IP: ${statuses.length} attempts, ${statuses.filter((s) => s === 201).length} made`);
    expect(statuses.filter((s) => s === 201)).toHaveLength(60);
    expect(statuses.slice(60).every((s) => s === 429)).toBe(true);
    const refused = await order('203.0.113.5');
    expect(refused.json()).toMatchObject({ code: 'too_many_attempts', rule: 'orders_per_ip_per_hour' });
    expect((await order('203.0.113.6')).statusCode).toBe(201);
  });

  it('one session makes at most 30 orders an hour', async () => {
    const first = await order('203.0.113.7');
    const cookie = `kassa_session=${first.cookies.find((c) => c.name === 'kassa_session')?.value ?? ''}`;
    const statuses = [first.statusCode];
    for (let attempt = 1; attempt < 35; attempt += 1) statuses.push((await order('203.0.113.7', cookie)).statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(30);
    expect((await order('203.0.113.7', cookie)).json()).toMatchObject({ rule: 'orders_per_session_per_hour' });
  });

  it('65 checkout sessions (client tokens) asked for from one IP: 60 handed out, another IP still gets one', async () => {
    const tokens = async (ip: string, count: number) => {
      const statuses: number[] = [];
      // A fresh guest session and order for every 20 asks, so the per-IP rule is the one reached.
      for (let asked = 0; asked < count; asked += 1) {
        const made = await order(ip === '203.0.113.8' ? `198.51.100.${Math.floor(asked / 20)}` : ip);
        const cookie = `kassa_session=${made.cookies.find((c) => c.name === 'kassa_session')?.value ?? ''}`;
        const id = made.json<{ order: { id: string } }>().order.id;
        const response = await app.inject({
          method: 'POST',
          url: `/api/orders/${id}/checkout-session`,
          remoteAddress: ip,
          headers: { 'content-type': 'application/json', cookie },
        });
        statuses.push(response.statusCode);
      }
      return statuses;
    };
    const statuses = await tokens('203.0.113.8', 65);
    console.log(`client tokens from one IP: ${statuses.length} asked, ${statuses.filter((s) => s === 200).length} handed out`);
    expect(statuses.filter((s) => s === 200)).toHaveLength(60);
    expect(await tokens('203.0.113.9', 1)).toEqual([200]);
  }, 120_000);
});
