import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';

// Issue 9: a text/plain cross-site POST reached a state-changing route when its path was spelled `/%61pi/...` (the
// JSON-only check looked at the path's prefix). The check now sits on the routes themselves.

/** Spellings of /api/orders that the router sends to the orders route. */
const SPELLINGS = ['/api/orders', '/%61pi/orders', '/%61%70%69/orders', '/api/%6Frders', '/api/orders?x=/elsewhere'];
const ORDER = { items: [{ productId: 'prd_mug', quantity: 1 }] };

describe.each(ENGINES.map((make) => [make().name, make] as const))('cross-site requests on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  appPerTest(engine, async (opened) => {
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    return app;
  });

  const post = (url: string, headers: Record<string, string>, payload: string) =>
    app.inject({ method: 'POST', url, headers, payload });

  it.each(SPELLINGS)('refuses a text/plain POST to %s, which JSON from the shop itself reaches', async (url) => {
    const shop = await post(url, { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' }, JSON.stringify(ORDER));
    expect(shop.statusCode).toBe(201);

    const form = await post(url, { 'content-type': 'text/plain' }, JSON.stringify(ORDER));
    expect(form.statusCode).toBe(415);
    expect(form.json()).toMatchObject({ code: 'unsupported_media_type' });
    expect(form.cookies.find((cookie) => cookie.name === 'kassa_session')).toBeUndefined();
  });

  it.each(SPELLINGS)('refuses JSON to %s from another site, by Fetch Metadata or by Origin', async (url) => {
    for (const site of ['cross-site', 'same-site']) {
      const response = await post(url, { 'content-type': 'application/json', 'sec-fetch-site': site }, JSON.stringify(ORDER));
      expect(response.statusCode, site).toBe(403);
      expect(response.json()).toMatchObject({ code: 'cross_site_request' });
    }
    // A browser without Fetch Metadata: the Origin header names another site.
    const old = await post(
      url,
      { 'content-type': 'application/json', origin: 'https://evil.example', host: 'shop.example' },
      JSON.stringify(ORDER),
    );
    expect(old.statusCode).toBe(403);
    const same = await post(
      url,
      { 'content-type': 'application/json', origin: 'https://shop.example', host: 'shop.example' },
      JSON.stringify(ORDER),
    );
    expect(same.statusCode).toBe(201);
  });

  it('keeps a signed-in session when another site tries to sign it out through an odd spelling', async () => {
    const client = new TestClient(app);
    expect((await client.post('/api/session', { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' })).statusCode).toBe(
      200,
    );
    for (const headers of [
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site' },
    ]) {
      const response = await app.inject({
        method: 'DELETE',
        url: '/%61pi/session',
        headers: { ...headers, cookie: client.cookie ?? '' },
      });
      expect(response.statusCode).toBeGreaterThanOrEqual(400);
    }
    expect((await client.get('/api/session')).json()).toMatchObject({ account: { email: 'shopper@kassa.test' } });
    // The same spelling from the shop itself signs out: the route is reached, the check passed.
    expect((await client.request('DELETE', '/%61pi/session', undefined, { 'sec-fetch-site': 'same-origin' })).statusCode).toBe(
      204,
    );
  });
});
