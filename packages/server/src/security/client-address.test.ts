import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import type { TrustProxy } from '../config.ts';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';
import { inOneRateLimitMinute } from '../testing/rate-limit-window.ts';

// Issue 9: behind TRUST_PROXY=true a card tester rotated X-Forwarded-For and got a fresh per-IP limit on every
// request. Client addresses now come only from the proxies the merchant names. The per-IP limit on sign-in (3 a
// minute here) shows which address the server believed. (The address is no database matter: SQLite only.)

const engine = sqliteEngine();
const opened: Array<{ app: FastifyInstance; cleanup(): Promise<void> }> = [];
beforeAll(() => engine.setup());
afterEach(async () => {
  for (const { app, cleanup } of opened.splice(0)) {
    await app.close();
    await cleanup();
  }
});
afterAll(() => engine.teardown());

async function appTrusting(trustProxy: TrustProxy): Promise<FastifyInstance> {
  // Each test's attempts (at most ten, a few ms each) must fall in one minute of the limit's clock.
  await inOneRateLimitMinute(5000);
  const database = await engine.open();
  const config = testConfig(database.config, null, { trustProxy });
  const app = await buildApp(
    { ...config, rateLimits: { ...config.rateLimits, accountsPerMinute: 3 } },
    { database: database.handle, gateway: null },
  );
  opened.push({ app, cleanup: database.cleanup });
  return app;
}

/** Sign-in attempts from `peer` (the TCP peer) with the given X-Forwarded-For values; their status codes. */
async function attempts(app: FastifyInstance, peer: string, forwardedFor: readonly string[]): Promise<number[]> {
  const statuses: number[] = [];
  for (const xff of forwardedFor) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/session',
      remoteAddress: peer,
      headers: { 'content-type': 'application/json', 'x-forwarded-for': xff },
      payload: { email: 'nobody@kassa.test', password: 'wrong password' },
    });
    statuses.push(response.statusCode);
  }
  return statuses;
}

const ROTATED = ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4', '198.51.100.5'];

describe('client addresses', () => {
  it('ignore X-Forwarded-For when no proxy is trusted: rotating it does not escape the per-IP limit', async () => {
    const app = await appTrusting(false);
    expect(await attempts(app, '203.0.113.9', ROTATED)).toEqual([401, 401, 401, 429, 429]);
  });

  it('ignore X-Forwarded-For from a peer outside the trusted ranges', async () => {
    const app = await appTrusting(['10.0.0.0/8']);
    expect(await attempts(app, '203.0.113.9', ROTATED)).toEqual([401, 401, 401, 429, 429]);
  });

  it('take the client from a trusted proxy: clients behind it are limited each on their own', async () => {
    const app = await appTrusting(['10.0.0.0/8']);
    expect(await attempts(app, '10.1.2.3', ROTATED)).toEqual([401, 401, 401, 401, 401]);
    // One client behind the proxy is limited, whatever it writes in front of the address the proxy appended.
    expect(
      await attempts(
        app,
        '10.1.2.3',
        ROTATED.map((spoofed) => `${spoofed}, 192.0.2.7`),
      ),
    ).toEqual([401, 401, 401, 429, 429]);
  });

  it('with a hop count, believe only the address the proxy appended', async () => {
    const app = await appTrusting(1);
    expect(
      await attempts(
        app,
        '10.1.2.3',
        ROTATED.map((spoofed) => `${spoofed}, 192.0.2.7`),
      ),
    ).toEqual([401, 401, 401, 429, 429]);
  });
});

describe('TRUST_PROXY', () => {
  const problems = (value: string) => {
    try {
      loadConfig({ TRUST_PROXY: value });
      return [];
    } catch (error) {
      return (error as { problems: string[] }).problems;
    }
  };

  it('reads none, a hop count, or addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '0' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.2,fd00::/8, loopback' }).trustProxy).toEqual([
      '10.0.0.0/8',
      '192.168.1.2',
      'fd00::/8',
      'loopback',
    ]);
  });

  it('refuses "trust everyone" and what is not an address, naming the variable', () => {
    expect(problems('true')[0]).toMatch(/^TRUST_PROXY=true would believe any client's X-Forwarded-For/);
    expect(problems('10.0.0.0/33')[0]).toMatch(/^TRUST_PROXY must be false, a number of proxies, or addresses/);
    expect(problems('proxy.example')[0]).toMatch(/^TRUST_PROXY must be/);
  });
});
