import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { postgresEngine } from '../testing/engines.ts';
import { inOneRateLimitMinute } from '../testing/rate-limit-window.ts';

// Issue 10: several instances of the server on one PostgreSQL enforce ONE limit. The rate limits, the velocity rules
// and the bot-check's single-use tokens live in the database, so a client spreading its requests over two instances
// (as a load balancer would) gets no more than from one.

const engine = postgresEngine();
let instances: [FastifyInstance, FastifyInstance];
let cleanup: () => Promise<void>;
const ACCOUNTS_PER_MINUTE = 6;

beforeAll(async () => {
  await engine.setup();
  const opened = await engine.open();
  const config = testConfig(opened.config, null, {
    rateLimits: { paymentsPerMinute: 120, accountsPerMinute: ACCOUNTS_PER_MINUTE },
  });
  // Sign-in guarded by the bot-check, as by default (the tests' config guards payments only). One configuration for
  // both: the same session and bot-check secrets, as two instances behind a load balancer.
  const shared = { ...config, botcheck: { ...config.botcheck, actions: loadConfig({}).botcheck.actions } };
  // The second instance opens the same database itself: its own connection pool, as another process would.
  instances = [await buildApp(shared, { database: opened.handle }), await buildApp(shared)];
  cleanup = async () => {
    await Promise.all(instances.map((app) => app.close()));
    await opened.cleanup();
  };
}, 60_000);
afterAll(async () => {
  await cleanup?.();
  await engine.teardown();
});

/** A sign-in with a wrong password; each test its own email, so the per-email velocity rule counts only its own. */
const wrongPassword = (email: string) => ({ email, password: 'not-the-password' });
const across = (n: number): FastifyInstance => instances[n % 2] as FastifyInstance;

it(`one address gets ${ACCOUNTS_PER_MINUTE} sign-ins a minute over both instances together, then 429 rate_limited`, async () => {
  await inOneRateLimitMinute(3000);
  const statuses: number[] = [];
  for (let n = 0; n < ACCOUNTS_PER_MINUTE + 2; n += 1) {
    const response = await new TestClient(across(n), '192.0.2.1').post('/api/session', wrongPassword('rate-limit@kassa.test'));
    statuses.push(response.statusCode);
  }
  // Within the limit the bot-check refuses the token-less sign-ins (403); past it the rate limit answers first.
  expect(statuses).toEqual([...Array(ACCOUNTS_PER_MINUTE).fill(403), 429, 429]);
});

it('the velocity rule on failed sign-ins per email (10 in 15 minutes) counts them on both instances', async () => {
  const codes: string[] = [];
  for (let n = 0; n < 12; n += 1) {
    // A new address each time: the per-address rate limit stays out of the way; the per-email rule does not.
    const client = new TestClient(across(n), `198.51.100.${n + 1}`);
    const botcheck = await client.botcheckToken('sign_in');
    codes.push(
      (await client.post('/api/session', { ...wrongPassword('velocity@kassa.test'), botcheck })).json<{ code: string }>().code,
    );
  }
  expect(codes).toEqual([...Array(10).fill('invalid_credentials'), 'too_many_attempts', 'too_many_attempts']);
});

it('a bot-check token spent on one instance is refused on the other; a fresh one of the same session is not', async () => {
  const [first, second] = instances;
  const client = new TestClient(first, '203.0.113.9');
  const signIn = async (app: FastifyInstance, botcheck: string) =>
    (
      await app.inject({
        method: 'POST',
        url: '/api/session',
        remoteAddress: '203.0.113.9',
        headers: { 'content-type': 'application/json', cookie: client.cookie ?? '' },
        payload: JSON.stringify({ ...wrongPassword('replay@kassa.test'), botcheck }),
      })
    ).json<{ code: string }>().code;
  // A failed sign-in keeps the session, so the token stays bound to the session it is sent with.
  const spent = await client.botcheckToken('sign_in');
  expect(await signIn(first, spent)).toBe('invalid_credentials');
  expect(await signIn(second, spent)).toBe('botcheck_failed');
  expect(await signIn(second, await client.botcheckToken('sign_in'))).toBe('invalid_credentials');
});
