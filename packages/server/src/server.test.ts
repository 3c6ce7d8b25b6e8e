import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { solveChallenge } from 'altcha-lib';
import type { Challenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { loadConfig, startServer } from './index.ts';
import type { RunningServer } from './index.ts';
import { inOneRateLimitMinute } from './testing/rate-limit-window.ts';
import { gatewayEnv, startSandboxProcess } from './testing/sandbox.ts';

describe('startServer', () => {
  let server: RunningServer | undefined;
  let dir: string | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it('listens, returns the demo credentials, and logs to LOG_FILE without bodies or secrets', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-server-'));
    const logFile = join(dir, 'logs', 'kassa.log');
    // Debug: the request lines, with their headers, are logged too. Sign-in without the bot-check (this is about logs).
    const config = loadConfig({
      PORT: '0',
      DATABASE_URL: join(dir, 'kassa.sqlite'),
      LOG_FILE: logFile,
      LOG_LEVEL: 'debug',
      BOTCHECK_ON: 'payment',
    });
    server = await startServer(config);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.demo).toEqual({
      shopper: { email: 'shopper@kassa.test', password: 'kassa-demo-shopper' },
      admin: { email: 'admin@kassa.test', password: 'kassa-demo-admin' },
    });

    const signIn = await fetch(`${server.url}/api/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'shopper@kassa.test', password: 'kassa-demo-shopper' }),
    });
    expect(signIn.status).toBe(200);
    const cookie = signIn.headers.get('set-cookie')?.split(';')[0] ?? '';
    expect(cookie).toMatch(/^kassa_session=/);
    const secretish = await fetch(`${server.url}/api/orders/ord_nope/payments`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        cookie,
        authorization: 'Bearer secret-token',
        'idempotency-key': 'idem-secret-key',
      },
      body: JSON.stringify({ nonce: '4111111111111111', botcheck: 'x', cardNumber: '4111 1111 1111 1111' }),
    });
    expect(secretish.status).toBe(503);

    const log = readFileSync(logFile, 'utf8');
    const lines = log
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { msg?: string });
    expect(lines.some((l) => l.msg === 'request completed')).toBe(true);
    for (const secret of [
      '4111111111111111',
      '4111 1111 1111 1111',
      'kassa-demo-shopper',
      cookie.split('=')[1] ?? 'nope',
      'secret-token',
      'idem-secret-key',
    ]) {
      expect(log).not.toContain(secret);
    }
  });

  it('logs request lines at debug only: at info, a request leaves no request line', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-server-'));
    const logFile = join(dir, 'kassa.log');
    server = await startServer(
      loadConfig({ PORT: '0', DATABASE_URL: join(dir, 'kassa.sqlite'), LOG_FILE: logFile, LOG_LEVEL: 'info' }),
    );
    expect((await fetch(`${server.url}/api/catalogue`)).status).toBe(200);
    const messages = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { msg?: string }).msg);
    expect(messages).not.toContain('incoming request');
    expect(messages).not.toContain('request completed');
  });

  it('rate-limits payment attempts per IP with a problem', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-server-'));
    const config = {
      ...loadConfig({ PORT: '0', DATABASE_URL: join(dir, 'kassa.sqlite'), LOG_LEVEL: 'silent' }),
      rateLimits: { paymentsPerMinute: 2, accountsPerMinute: 100 },
    };
    server = await startServer(config);
    await inOneRateLimitMinute(3000);
    const attempt = () =>
      fetch(`${server?.url}/api/orders/ord_x/payments`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'idempotency-key': 'k' },
        body: '{}',
      });
    expect((await attempt()).status).toBe(400);
    expect((await attempt()).status).toBe(400);
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect(await limited.json()).toMatchObject({ code: 'rate_limited', status: 429 });
  });

  it('pays end to end over HTTP, configured from the environment like the start script does', async () => {
    dir = mkdtempSync(join(tmpdir(), 'kassa-server-'));
    const sandbox = await startSandboxProcess();
    try {
      const { gateway } = sandbox;
      server = await startServer(
        loadConfig({
          PORT: '0',
          DATABASE_URL: join(dir, 'kassa.sqlite'),
          LOG_LEVEL: 'silent',
          ...gatewayEnv(gateway),
          GATEWAY_ORIGIN: sandbox.origin,
        }),
      );
      const url = server.url;
      let cookie = '';
      const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
        const response = await fetch(`${url}${path}`, {
          method,
          headers: {
            ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
            ...(cookie ? { cookie } : {}),
            ...headers,
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const set = response.headers.get('set-cookie');
        if (set !== null) cookie = set.split(';')[0] ?? '';
        return response;
      };

      const csp = (await call('GET', '/api/health')).headers.get('content-security-policy') ?? '';
      expect(csp).toContain(`frame-src ${sandbox.origin}`);
      expect(csp).toContain(`connect-src 'self' ${sandbox.origin}`);

      // The bot-check guards sign-in and payments by default: each gets a token solved for it.
      const solved = async (challengeUrl: string) => {
        const challenge = (await (await call('GET', challengeUrl)).json()) as Challenge;
        const solution = await solveChallenge({ challenge, deriveKey });
        return Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
      };
      const signIn = {
        email: 'shopper@kassa.test',
        password: 'kassa-demo-shopper',
        botcheck: await solved('/api/botcheck/challenge?action=sign_in'),
      };
      expect((await call('POST', '/api/session', signIn)).status).toBe(200);
      const { order } = (await (
        await call('POST', '/api/orders', { items: [{ productId: 'prd_grinder', quantity: 1 }] })
      ).json()) as { order: { id: string } };
      const session = (await (await call('POST', `/api/orders/${order.id}/checkout-session`)).json()) as {
        amount: unknown;
        botcheck: { challengeUrl: string };
      };
      expect(session.amount).toEqual({ amount: 18900, currency: 'EUR' });
      const botcheck = await solved(session.botcheck.challengeUrl);
      const paid = await call(
        'POST',
        `/api/orders/${order.id}/payments`,
        { nonce: 'fake-valid-nonce', botcheck },
        { 'idempotency-key': crypto.randomUUID() },
      );
      expect(paid.status).toBe(201);
      expect(await paid.json()).toMatchObject({
        payment: { status: 'succeeded', amount: { amount: 18900, currency: 'EUR' } },
        order: { status: 'paid' },
      });
    } finally {
      await sandbox.stop();
    }
  });
});
