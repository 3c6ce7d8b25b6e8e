import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { ENGINES } from '../testing/engines.ts';

// Issue 9: sign-in took 7,000+ guesses a minute, and nothing checked that signing in ends the previous session.

const SHOPPER = { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' };

describe.each(ENGINES.map((make) => [make().name, make] as const))('sign-in on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  let second: FastifyInstance;
  let opened: Awaited<ReturnType<typeof engine.open>>;
  let cleanup: () => Promise<void>;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  beforeEach(async () => {
    opened = await engine.open();
    // Two server instances on one database, configured alike (SESSION_SECRET included), as behind a load balancer.
    const config = testConfig(opened.config);
    app = await buildApp(config, { database: opened.handle, gateway: null });
    second = await buildApp(config, { database: opened.handle, gateway: null });
    cleanup = async () => {
      await app.close();
      await second.close();
      await opened.cleanup();
    };
  });
  afterEach(() => cleanup());

  const signIn = (
    target: FastifyInstance,
    body: { email: string; password: string },
    ip = '203.0.113.1',
    cookie?: string,
  ): Promise<LightMyRequestResponse> =>
    target.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: ip,
      headers: { 'content-type': 'application/json', ...(cookie === undefined ? {} : { cookie }) },
      payload: body,
    });

  it('ends the previous session: the cookie from before signing in no longer works', async () => {
    const client = new TestClient(app);
    const { order } = (await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
      order: { id: string };
    }>();
    const guestCookie = client.cookie ?? '';
    expect(guestCookie).not.toBe('');
    // As an attacker who planted that cookie in the shopper's browser would try it after the shopper signs in.
    const signedIn = await client.post('/api/session', SHOPPER);
    expect(signedIn.statusCode).toBe(200);
    expect(client.cookie).not.toBe(guestCookie);
    const withOld = (url: string) => app.inject({ method: 'GET', url, headers: { cookie: guestCookie } });
    expect((await withOld('/api/session')).json()).toEqual({ account: null, guestOrders: [] });
    expect((await withOld(`/api/orders/${order.id}`)).statusCode).toBe(404);

    // Signing in again (same browser) ends the signed-in session too.
    const firstSignedIn = client.cookie ?? '';
    expect((await client.post('/api/session', SHOPPER)).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/api/session', headers: { cookie: firstSignedIn } })).json()).toEqual({
      account: null,
      guestOrders: [],
    });
    expect((await client.get('/api/session')).json()).toMatchObject({ account: { email: SHOPPER.email } });
  });

  it('hashes a password again at the cost set when it signs in, and only then: a changed cost reaches existing accounts', async () => {
    const storedHash = async () =>
      (
        await opened.handle.db
          .selectFrom('accounts')
          .select('password_hash')
          .where('email', '=', SHOPPER.email)
          .executeTakeFirstOrThrow()
      ).password_hash;
    const seeded = await storedHash();
    expect(seeded).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
    // An instance whose setting was raised, on the same database.
    const raised = await buildApp(testConfig(opened.config, null, { passwordCost: { memoryKiB: 512, passes: 2 } }), {
      database: opened.handle,
      gateway: null,
    });
    try {
      expect((await signIn(raised, { ...SHOPPER, password: 'not the password' })).statusCode).toBe(401);
      expect(await storedHash()).toBe(seeded);
      expect((await signIn(raised, SHOPPER)).statusCode).toBe(200);
      expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=512,t=2,p=1\$/);
      // The new hash signs its owner in on an instance still at the old setting, which makes it at its own cost again.
      expect((await signIn(app, SHOPPER, '203.0.113.2')).statusCode).toBe(200);
      expect(await storedHash()).toMatch(/^\$argon2id\$v=19\$m=256,t=1,p=1\$/);
      expect(await storedHash()).not.toBe(seeded);
    } finally {
      await raised.close();
    }
  });

  it('slows guesses per email across instances and addresses, the right password included, unknown emails alike', async () => {
    for (const email of [SHOPPER.email, 'nobody@kassa.test']) {
      const statuses: number[] = [];
      for (let guess = 0; guess < 10; guess += 1) {
        // Alternating instances and addresses: the count is in the database, per email.
        statuses.push(
          (await signIn(guess % 2 === 0 ? app : second, { email, password: `guess ${guess}` }, `198.51.100.${guess}`)).statusCode,
        );
      }
      expect(statuses).toEqual(Array(10).fill(401));
      const refused = await signIn(second, { email: email.toUpperCase(), password: SHOPPER.password }, '198.51.100.99');
      expect(refused.statusCode, email).toBe(429);
      expect(refused.json()).toMatchObject({ code: 'too_many_attempts', rule: 'sign_in_failures_per_email_per_15_minutes' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(800);
    }
  });

  it('slows guesses per IP across emails, without touching other addresses', async () => {
    const statuses: number[] = [];
    for (let guess = 0; guess < 31; guess += 1) {
      statuses.push(
        (await signIn(guess % 2 === 0 ? app : second, { email: `person${guess}@kassa.test`, password: 'guess' }, '203.0.113.66'))
          .statusCode,
      );
    }
    expect(statuses.slice(0, 30)).toEqual(Array(30).fill(401));
    expect(statuses[30]).toBe(429);
    expect((await signIn(app, SHOPPER, '203.0.113.67')).statusCode).toBe(200);
  });

  it('does not count sign-ins that succeed', async () => {
    for (let time = 0; time < 12; time += 1) expect((await signIn(app, SHOPPER)).statusCode).toBe(200);
  });
});
