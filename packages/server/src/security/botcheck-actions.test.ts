import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { buildApp } from '../index.ts';
import { STANDIN_KEYS, standinUrls, startBotcheckStandin } from '../testing/botcheck-standin/standin.ts';
import type { BotcheckStandin } from '../testing/botcheck-standin/standin.ts';
import { outbox, TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';

// Sign-in, sign-up and saving a card need a bot-check token of their own action when the merchant guards them
// (BOTCHECK_ON, all by default): a script that guesses passwords, makes accounts or saves cards pays the proof of
// work on every try, and a token solved for one action is refused for another.

describe('the bot-check on sign-in, sign-up and saving a card (BOTCHECK_ON defaults to all)', () => {
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const temp = tempSqliteFile();
    const config = testConfig({ engine: 'sqlite', file: temp.file });
    // The product's default (every action guarded), where the tests' config guards payments only.
    const guarded = loadConfig({}).botcheck.actions;
    app = await buildApp({ ...config, botcheck: { ...config.botcheck, actions: guarded } }, { gateway: null });
    cleanup = async () => {
      await app.close();
      temp.cleanup();
    };
  });
  afterEach(() => cleanup());

  const admin = { email: 'admin@kassa.test', password: 'kassa-demo-admin' };

  it('tells the page which actions are guarded and how to get a token', async () => {
    const visitor = new TestClient(app);
    expect((await visitor.get('/api/botcheck/settings?action=sign_in')).json()).toEqual({
      botcheck: {
        provider: 'altcha',
        challengeUrl: '/api/botcheck/challenge?action=sign_in',
        anchorTimeoutMs: 20_000,
        executeTimeoutMs: 15_000,
      },
    });
  });

  it('sign-in: refused without a token or with one solved for another action; with its own it signs in', async () => {
    const client = new TestClient(app);
    expect((await client.post('/api/session', admin)).json()).toMatchObject({ status: 403, code: 'botcheck_failed' });
    const forPayment = await client.botcheckToken('payment');
    expect((await client.post('/api/session', { ...admin, botcheck: forPayment })).json()).toMatchObject({
      code: 'botcheck_failed',
    });
    const response = await client.post('/api/session', { ...admin, botcheck: await client.botcheckToken('sign_in') });
    expect(response.statusCode).toBe(200);
    const refusals = (await client.get('/api/admin/refusals?kind=botcheck')).json<{
      refusals: { action: string; reason: string }[];
    }>();
    expect(refusals.refusals.map((r) => [r.action, r.reason])).toEqual([
      ['sign_in', 'issued for another action'],
      ['sign_in', 'no token'],
    ]);
  });

  it('sign-up: refused without a token (no mail written), created with one', async () => {
    const client = new TestClient(app);
    const body = { email: 'ada@example.com', password: 'correct horse', name: 'Ada' };
    expect((await client.post('/api/accounts', body)).json()).toMatchObject({ status: 403, code: 'botcheck_failed' });
    expect(await outbox(app, body.email)).toEqual([]);
    expect((await client.signUp({ ...body, botcheck: await client.botcheckToken('sign_up') })).statusCode).toBe(201);
  });

  it('saving a card: refused without a token before the gateway is asked; with one it goes on to the gateway', async () => {
    const client = new TestClient(app);
    await client.post('/api/session', {
      email: 'shopper@kassa.test',
      password: 'kassa-demo-shopper',
      botcheck: await client.botcheckToken('sign_in'),
    });
    const save = (body: Record<string, unknown>, key: string) =>
      client.post('/api/payment-methods', { nonce: 'fake-valid-visa-nonce', ...body }, { 'idempotency-key': key });
    expect((await save({}, 'k1')).json()).toMatchObject({ status: 403, code: 'botcheck_failed' });
    // No gateway in this test: past the bot-check, the next refusal is the gateway's absence.
    expect((await save({ botcheck: await client.botcheckToken('save_card') }, 'k2')).json()).toMatchObject({
      status: 503,
      code: 'gateway_not_configured',
    });
  });
});

describe('a third-party provider that cannot be asked (BOTCHECK_FAIL_OPEN)', () => {
  // Turnstile cannot be reached from here: its local stand-in (src/testing/botcheck-standin/) answers 503 instead.
  let standin: BotcheckStandin;
  let app: FastifyInstance;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    standin = await startBotcheckStandin();
    standin.controls.down = true;
    const temp = tempSqliteFile();
    const env = {
      BOTCHECK_PROVIDER: 'turnstile',
      BOTCHECK_SITE_KEY: STANDIN_KEYS.siteKey,
      BOTCHECK_SECRET_KEY: STANDIN_KEYS.secretKey,
      BOTCHECK_VERIFY_URL: standinUrls(standin.url, 'turnstile').verifyUrl,
      BOTCHECK_SCRIPT_URL: standinUrls(standin.url, 'turnstile').scriptUrl,
      BOTCHECK_FAIL_OPEN: 'sign_in',
    };
    const config = testConfig({ engine: 'sqlite', file: temp.file });
    app = await buildApp({ ...config, botcheck: loadConfig(env).botcheck }, { gateway: null });
    cleanup = async () => {
      await app.close();
      await standin.close();
      temp.cleanup();
    };
  });
  afterEach(() => cleanup());

  it('lets a low-risk action the merchant named through, and refuses the others (fail closed)', async () => {
    const client = new TestClient(app);
    expect(
      (await client.post('/api/session', { email: 'shopper@kassa.test', password: 'kassa-demo-shopper', botcheck: 'a-token' }))
        .statusCode,
    ).toBe(200);
    const signUp = await client.post('/api/accounts', {
      email: 'ada@example.com',
      password: 'correct horse',
      name: 'Ada',
      botcheck: 'a-token',
    });
    expect(signUp.json()).toMatchObject({ status: 403, code: 'botcheck_failed' });
  });
});
