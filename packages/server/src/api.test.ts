import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from './index.ts';
import { TestClient } from './testing/client.ts';
import { testConfig } from './testing/config.ts';
import { appPerTest } from './testing/app-per-test.ts';
import { ENGINES, sqliteEngine } from './testing/engines.ts';

describe.each(ENGINES.map((make) => [make().name, make] as const))('HTTP API on %s (no gateway)', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  appPerTest(engine, async (opened) => {
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    return app;
  });

  it('answers health and the seeded catalogue in minor units', async () => {
    const client = new TestClient(app);
    expect((await client.get('/api/health')).json()).toEqual({ ok: true });
    const { products } = (await client.get('/api/catalogue')).json<{
      products: { id: string; price: { amount: number; currency: string } }[];
    }>();
    expect(products.length).toBeGreaterThanOrEqual(3);
    expect(products).toContainEqual(
      expect.objectContaining({ id: 'prd_espressomachine', price: { amount: 200000, currency: 'EUR' } }),
    );
  });

  it('sets the strict CSP and other security headers on every response', async () => {
    const client = new TestClient(app);
    for (const url of ['/api/health', '/api/nope']) {
      const response = await client.get(url);
      const csp = String(response.headers['content-security-policy']);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("worker-src 'self';");
      expect(csp).not.toContain('unsafe-inline');
      expect(csp).not.toContain('unsafe-eval');
      expect(response.headers).toMatchObject({
        'x-content-type-options': 'nosniff',
        'x-frame-options': 'DENY',
        'cross-origin-opener-policy': 'same-origin-allow-popups',
        'cross-origin-resource-policy': 'same-origin',
        'referrer-policy': 'no-referrer',
        'origin-agent-cluster': '?1',
        'x-permitted-cross-domain-policies': 'none',
      });
      // Plain http (no https PUBLIC_URL): no HSTS, and no COEP, which would stop the gateway's frames.
      expect(response.headers['strict-transport-security']).toBeUndefined();
      expect(response.headers['cross-origin-embedder-policy']).toBeUndefined();
    }
  });

  it('marks the session cookie Secure when the request is https, behind a trusted proxy too', async () => {
    const signIn = (target: FastifyInstance, headers: Record<string, string> = {}) =>
      target.inject({
        method: 'POST',
        url: '/api/session',
        headers: { 'content-type': 'application/json', ...headers },
        payload: { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' },
      });
    const plain = String((await signIn(app)).headers['set-cookie']);
    expect(plain).toContain('HttpOnly');
    expect(plain).not.toContain('Secure');
    const opened = await engine.open();
    const proxied = await buildApp(testConfig(opened.config, null, { trustProxy: ['127.0.0.1'] }), {
      database: opened.handle,
      gateway: null,
    });
    try {
      expect(String((await signIn(proxied, { 'x-forwarded-proto': 'https' })).headers['set-cookie'])).toContain('Secure');
    } finally {
      await proxied.close();
      await opened.cleanup();
    }
  });

  it('signs up, reads the session, signs out and back in', async () => {
    const client = new TestClient(app);
    expect((await client.get('/api/session')).json()).toEqual({ account: null, guestOrders: [] });
    const created = await client.signUp({ email: 'Ada@Example.com', password: 'correct horse', name: 'Ada' });
    expect(created.statusCode).toBe(201);
    const { account } = created.json<{ account: { id: string; email: string; role: string } }>();
    expect(account).toMatchObject({ email: 'ada@example.com', name: 'Ada', role: 'shopper' });
    expect(account.id).toMatch(/^acc_/);
    const cookie = created.headers['set-cookie'];
    expect(String(cookie)).toMatch(/kassa_session=.+; Max-Age=\d+; Path=\/; HttpOnly; SameSite=Lax/);
    expect((await client.get('/api/session')).json()).toEqual({ account, guestOrders: [] });

    // Signing up again with that email answers as for a new one (security/sign-up.test.ts); no second account.
    expect(
      (await client.post('/api/accounts', { email: 'ada@example.com', password: 'another pass', name: 'Ada 2' })).statusCode,
    ).toBe(202);

    const out = await client.request('DELETE', '/api/session');
    expect(out.statusCode).toBe(204);
    expect((await client.get('/api/session')).json()).toEqual({ account: null, guestOrders: [] });

    const wrong = await client.post('/api/session', { email: 'ada@example.com', password: 'wrong password' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(wrong.json()).toMatchObject({ code: 'invalid_credentials' });

    const back = await client.post('/api/session', { email: 'ADA@example.com', password: 'correct horse' });
    expect(back.statusCode).toBe(200);
    expect(back.json()).toEqual({ account });
  });

  it('seeds the demo shopper and admin with the configured passwords', async () => {
    const client = new TestClient(app);
    const admin = await client.post('/api/session', { email: 'admin@kassa.test', password: 'kassa-demo-admin' });
    expect(admin.json()).toMatchObject({ account: { email: 'admin@kassa.test', role: 'admin' } });
    const shopper = await new TestClient(app).post('/api/session', {
      email: 'shopper@kassa.test',
      password: 'kassa-demo-shopper',
    });
    expect(shopper.json()).toMatchObject({ account: { role: 'shopper' } });
  });

  it('creates orders priced from the catalogue, visible to their owner only', async () => {
    const guest = new TestClient(app);
    const created = await guest.post('/api/orders', {
      items: [
        { productId: 'prd_mug', quantity: 2 },
        { productId: 'prd_coffeebeans', quantity: 1, unitPrice: 1 },
      ],
    });
    expect(created.statusCode).toBe(201);
    const { order } = created.json<{ order: { id: string; number: number; status: string; total: unknown; items: unknown[] } }>();
    expect(order.id).toMatch(/^ord_/);
    expect(order.status).toBe('pending');
    // The human number on the receipt: the first order is 1001, the next one follows it.
    expect(order.number).toBe(1001);
    const next = await guest.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
    expect(next.json<{ order: { number: number } }>().order.number).toBe(1002);
    expect(order.total).toEqual({ amount: 2 * 1200 + 2450, currency: 'EUR' });
    expect(order.items[0]).toEqual({
      productId: 'prd_mug',
      name: 'Kassa mug',
      quantity: 2,
      unitPrice: { amount: 1200, currency: 'EUR' },
      total: { amount: 2400, currency: 'EUR' },
    });

    expect((await guest.get(`/api/orders/${order.id}`)).json()).toMatchObject({ order: { id: order.id, number: 1001 } });
    const stranger = new TestClient(app);
    for (const c of [stranger, new TestClient(app)]) {
      await c.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      const response = await c.get(`/api/orders/${order.id}`);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'order_not_found' });
    }
    // Signing up keeps the guest's orders when the shopper says so (security/guest-orders.test.ts: not otherwise).
    await guest.signUp({ email: 'guest@example.com', password: 'guest password', name: 'Guest' }, { keepGuestOrders: true });
    expect((await guest.get(`/api/orders/${order.id}`)).statusCode).toBe(200);
    expect((await new TestClient(app).get(`/api/orders/${order.id}`)).statusCode).toBe(404);
  });

  it('answers malformed input with 400 naming the field, never 500', async () => {
    const client = new TestClient(app);
    const cases: [unknown, string][] = [
      [{ items: [{ productId: 'prd_mug', quantity: 0 }] }, 'items.0.quantity'],
      [{ items: [{ productId: 'prd_mug', quantity: 'two' }] }, 'items.0.quantity'],
      [{ items: [{ productId: 'prd_nope', quantity: 1 }] }, 'items.0.productId'],
      [{ items: [] }, 'items'],
      [{}, 'items'],
      [[1, 2], 'body'],
    ];
    for (const [body, field] of cases) {
      const response = await client.post('/api/orders', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json<{ code: string; errors: { field: string }[] }>()).toMatchObject({
        code: 'validation_failed',
        errors: expect.arrayContaining([expect.objectContaining({ field })]),
      });
    }
    const signUp = await client.post('/api/accounts', { email: 'not-an-email', password: 'short', name: '' });
    expect(
      signUp
        .json<{ errors: { field: string }[] }>()
        .errors.map((e) => e.field)
        .sort(),
    ).toEqual(['email', 'name', 'password']);

    const badJson = await app.inject({
      method: 'POST',
      url: '/api/orders',
      headers: { 'content-type': 'application/json' },
      payload: '{"items": [',
    });
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'body', code: 'invalid_json' }] });
  });

  it('refuses mutations that are not application/json (CSRF defence)', async () => {
    const form = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'email=a&password=b',
    });
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ code: 'unsupported_media_type' });
  });

  it('tells the web app the shop is not on a sandbox gateway when none is configured', async () => {
    expect((await new TestClient(app).get('/api/config')).json()).toEqual({ sandbox: false, cardFieldsPage: null });
  });

  it('answers unknown API routes with a problem, and payments with 503 without a gateway', async () => {
    const client = new TestClient(app);
    expect((await client.get('/api/nope')).json()).toMatchObject({ status: 404, code: 'not_found' });
    const { order } = (await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
      order: { id: string };
    }>();
    const session = await client.post(`/api/orders/${order.id}/checkout-session`);
    expect(session.statusCode).toBe(503);
    expect(session.json()).toMatchObject({ code: 'gateway_not_configured' });
  });
});

describe('static web app', () => {
  it('serves WEB_DIST with the SPA fallback for non-API routes', async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kassa-web-'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kassa</title>');
    writeFileSync(join(dist, 'app.js'), 'console.log(1)');
    const engine = sqliteEngine();
    const opened = await engine.open();
    const app = await buildApp({ ...testConfig(opened.config), webDist: dist }, { database: opened.handle, gateway: null });
    try {
      const index = await app.inject({ method: 'GET', url: '/' });
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>Kassa</title>');
      expect((await app.inject({ method: 'GET', url: '/app.js' })).body).toBe('console.log(1)');
      const deep = await app.inject({ method: 'GET', url: '/orders/ord_123/receipt' });
      expect(deep.statusCode).toBe(200);
      expect(deep.headers['content-type']).toMatch(/text\/html/);
      expect(deep.headers['content-security-policy']).toContain("frame-ancestors 'none'");
      const api = await app.inject({ method: 'GET', url: '/api/unknown' });
      expect(api.statusCode).toBe(404);
      expect(api.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await app.close();
      await opened.cleanup();
      rmSync(dist, { recursive: true, force: true });
    }
  });

  it("sends the build's gzip copy to a browser that takes gzip, and caches the hashed assets for good but not the page", async () => {
    const dist = mkdtempSync(join(tmpdir(), 'kassa-web-'));
    const script = 'console.log("the app");'.repeat(100);
    mkdirSync(join(dist, 'assets'));
    writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Kassa</title>');
    writeFileSync(join(dist, 'assets', 'main-abc123.js'), script);
    writeFileSync(join(dist, 'assets', 'main-abc123.js.gz'), gzipSync(script));
    const engine = sqliteEngine();
    const opened = await engine.open();
    const app = await buildApp({ ...testConfig(opened.config), webDist: dist }, { database: opened.handle, gateway: null });
    try {
      const zipped = await app.inject({
        method: 'GET',
        url: '/assets/main-abc123.js',
        headers: { 'accept-encoding': 'gzip, deflate' },
      });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(zipped.headers['content-type']).toMatch(/javascript/);
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(script);
      expect(zipped.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const plain = await app.inject({ method: 'GET', url: '/assets/main-abc123.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);
      const page = await app.inject({ method: 'GET', url: '/', headers: { 'accept-encoding': 'gzip' } });
      expect(page.headers['cache-control']).not.toContain('immutable');
      expect(page.body).toContain('<title>Kassa</title>');
    } finally {
      await app.close();
      await opened.cleanup();
      rmSync(dist, { recursive: true, force: true });
    }
  });
});
