import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.ts';

function problemsOf(env: Record<string, string>): readonly string[] {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults: SQLite file, port 8080, no gateway, demo seed on', () => {
    const config = loadConfig({});
    expect(config.port).toBe(8080);
    expect(config.host).toBe('127.0.0.1');
    expect(config.database).toEqual({ engine: 'sqlite', file: './data/kassa.sqlite' });
    expect(config.gateway).toBeNull();
    expect(config.botcheck.anchorTimeoutMs).toBe(20_000);
    expect(config.botcheck.executeTimeoutMs).toBe(15_000);
    expect(config.demo).toEqual({ seed: true, shopperPassword: 'kassa-demo-shopper', adminPassword: 'kassa-demo-admin' });
  });

  it('reads a postgres URL and a local gateway, deriving the CSP origin', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgresql://u:p@db:5432/kassa',
      GATEWAY_HOST: '127.0.0.1',
      GATEWAY_PORT: '8090',
      GATEWAY_MERCHANT_ID: 'm',
      GATEWAY_PUBLIC_KEY: 'pub',
      GATEWAY_PRIVATE_KEY: 'priv',
    });
    expect(config.database).toEqual({ engine: 'postgres', url: 'postgresql://u:p@db:5432/kassa' });
    expect(config.gateway).toMatchObject({ kind: 'custom', host: '127.0.0.1', port: 8090, ssl: false });
    expect(config.gatewayOrigins).toEqual(['http://127.0.0.1:8090']);
  });

  it("derives the gateway's origin as a browser writes it, without a default port, when GATEWAY_ORIGIN is not set", () => {
    const keys = { GATEWAY_MERCHANT_ID: 'm', GATEWAY_PUBLIC_KEY: 'pub', GATEWAY_PRIVATE_KEY: 'priv' };
    const gateway = { GATEWAY_HOST: 'Gateway.Example', GATEWAY_PORT: '443', GATEWAY_SSL: 'true', ...keys };
    expect(loadConfig(gateway).gatewayOrigins).toEqual(['https://gateway.example']);
  });

  it("takes a third-party bot-check with its keys: the provider's endpoints, or a stand-in's origin in the CSP", () => {
    expect(problemsOf({ BOTCHECK_PROVIDER: 'turnstile' })).toEqual([
      "BOTCHECK_SITE_KEY is required with BOTCHECK_PROVIDER=turnstile (the provider's site key)",
      "BOTCHECK_SECRET_KEY is required with BOTCHECK_PROVIDER=turnstile (the provider's secret key)",
    ]);
    expect(problemsOf({ BOTCHECK_PROVIDER: 'friendly' })[0]).toBe(
      'BOTCHECK_PROVIDER must be one of altcha, recaptcha-v2, recaptcha-v3, hcaptcha, turnstile',
    );
    const hcaptcha = loadConfig({
      BOTCHECK_PROVIDER: 'hcaptcha',
      BOTCHECK_SITE_KEY: 's',
      BOTCHECK_SECRET_KEY: 'k',
      PUBLIC_URL: 'https://shop.example.com',
    });
    expect(hcaptcha.botcheck.siteverify).toMatchObject({
      verifyUrl: 'https://api.hcaptcha.com/siteverify',
      scriptUrl: 'https://js.hcaptcha.com/1/api.js',
      minScore: 0.5,
    });
    expect(hcaptcha.botcheck.widgetOrigins).toEqual(['https://hcaptcha.com', 'https://*.hcaptcha.com']);
    expect(hcaptcha.botcheck.hostnames).toEqual(['shop.example.com']);
    const standin = loadConfig({
      BOTCHECK_PROVIDER: 'recaptcha-v3',
      BOTCHECK_SITE_KEY: 's',
      BOTCHECK_SECRET_KEY: 'k',
      BOTCHECK_SCRIPT_URL: 'http://127.0.0.1:9000/recaptcha/api.js',
      BOTCHECK_MIN_SCORE: '0.7',
      BOTCHECK_HOSTNAMES: 'shop.test, www.shop.test',
    });
    expect(standin.botcheck.widgetOrigins).toEqual(['http://127.0.0.1:9000']);
    expect(standin.botcheck.siteverify?.minScore).toBe(0.7);
    expect(standin.botcheck.hostnames).toEqual(['shop.test', 'www.shop.test']);
    expect(loadConfig({}).botcheck).toMatchObject({ provider: 'altcha', siteverify: null, widgetOrigins: [], hostnames: [] });
  });

  it('guards every action with the bot-check unless BOTCHECK_ON says otherwise; payments always', () => {
    expect(loadConfig({}).botcheck.actions).toEqual(['payment', 'sign_in', 'sign_up', 'save_card']);
    expect(loadConfig({ BOTCHECK_ON: 'payment, sign_in' }).botcheck.actions).toEqual(['payment', 'sign_in']);
    expect(problemsOf({ BOTCHECK_ON: 'sign_in' })).toEqual([
      'BOTCHECK_ON must include payment: payments always need the bot-check',
    ]);
    expect(loadConfig({ BOTCHECK_FAIL_OPEN: 'sign_in' }).botcheck.failOpen).toEqual(['sign_in']);
    expect(problemsOf({ BOTCHECK_FAIL_OPEN: 'payment' })).toEqual([
      'BOTCHECK_FAIL_OPEN may list sign_in, sign_up, save_card (not payment): payments always fail closed',
    ]);
    expect(problemsOf({ BOTCHECK_ON: 'payment,login' })).toEqual([
      'BOTCHECK_ON must list actions among payment, sign_in, sign_up, save_card (not login)',
    ]);
  });

  it('names each bad variable in its own message', () => {
    const problems = problemsOf({
      PORT: 'eighty',
      BOTCHECK_ANCHOR_TIMEOUT_MS: '-5',
      DEMO_SEED: 'maybe',
      LOG_LEVEL: 'loud',
      LOG_TERMINAL_LEVEL: 'quiet',
    });
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/^PORT /);
    expect(problems.some((p) => p.startsWith('BOTCHECK_ANCHOR_TIMEOUT_MS'))).toBe(true);
    expect(problems.some((p) => p.startsWith('DEMO_SEED'))).toBe(true);
    expect(problems.some((p) => p.startsWith('LOG_LEVEL'))).toBe(true);
    expect(problems).toContain('LOG_TERMINAL_LEVEL must be one of fatal, error, warn, info, debug, trace, silent');
  });

  it('seeds the demo on a sandbox, not next to the production gateway unless its passwords are private', () => {
    const production = {
      GATEWAY_ENVIRONMENT: 'production',
      GATEWAY_MERCHANT_ID: 'm',
      GATEWAY_PUBLIC_KEY: 'pub',
      GATEWAY_PRIVATE_KEY: 'priv',
    };
    expect(loadConfig({}).demo.seed).toBe(true);
    expect(loadConfig(production).demo.seed).toBe(false);
    expect(problemsOf({ ...production, DEMO_SEED: 'true' })).toEqual([
      'DEMO_SEED=true with the production gateway needs DEMO_SHOPPER_PASSWORD and DEMO_ADMIN_PASSWORD of your own (the defaults are public)',
    ]);
    const own = loadConfig({
      ...production,
      DEMO_SEED: 'true',
      DEMO_SHOPPER_PASSWORD: 'private-one',
      DEMO_ADMIN_PASSWORD: 'private-two',
    });
    expect(own.demo).toEqual({ seed: true, shopperPassword: 'private-one', adminPassword: 'private-two' });
  });

  it('rejects a port out of range, an unknown database scheme, a bad gateway origin', () => {
    expect(problemsOf({ PORT: '70000' })).toEqual(['PORT must be between 0 and 65535']);
    expect(problemsOf({ DATABASE_URL: 'mysql://x' })[0]).toMatch(/^DATABASE_URL /);
    expect(problemsOf({ GATEWAY_ORIGIN: 'not a url' })[0]).toMatch(/^GATEWAY_ORIGIN /);
  });

  it('asks for the missing gateway credentials by name', () => {
    const problems = problemsOf({ GATEWAY_HOST: 'localhost', GATEWAY_PORT: '8090', GATEWAY_MERCHANT_ID: 'm' });
    expect(problems).toEqual([
      'GATEWAY_PUBLIC_KEY is required when a gateway is configured',
      'GATEWAY_PRIVATE_KEY is required when a gateway is configured',
    ]);
    expect(
      problemsOf({ GATEWAY_HOST: 'localhost', GATEWAY_MERCHANT_ID: 'm', GATEWAY_PUBLIC_KEY: 'a', GATEWAY_PRIVATE_KEY: 'b' }),
    ).toEqual(['GATEWAY_PORT is required when GATEWAY_HOST is set']);
  });

  it('uses the Braintree origins for the CSP with the real provider', () => {
    const config = loadConfig({
      GATEWAY_ENVIRONMENT: 'sandbox',
      GATEWAY_MERCHANT_ID: 'm',
      GATEWAY_PUBLIC_KEY: 'a',
      GATEWAY_PRIVATE_KEY: 'b',
    });
    expect(config.gateway).toMatchObject({ kind: 'braintree', environment: 'sandbox' });
    expect(config.gatewayOrigins).toContain('https://assets.braintreegateway.com');
  });

  it("hashes passwords at OWASP's minimum cost for Argon2id, or more, never less, nor past any guide's advice", () => {
    expect(loadConfig({}).passwordCost).toEqual({ memoryKiB: 19_456, passes: 2 });
    expect(loadConfig({ PASSWORD_HASH_MEMORY_KIB: '65536', PASSWORD_HASH_PASSES: '3' }).passwordCost).toEqual({
      memoryKiB: 65_536,
      passes: 3,
    });
    expect(problemsOf({ PASSWORD_HASH_MEMORY_KIB: '19455', PASSWORD_HASH_PASSES: '1' })).toEqual([
      "PASSWORD_HASH_MEMORY_KIB must be at least 19456 (OWASP's minimum for Argon2id)",
      "PASSWORD_HASH_PASSES must be at least 2 (OWASP's minimum for Argon2id)",
    ]);
    // 2^32 KiB would reach Argon2 as 0, refused at every sign-in rather than at the start.
    expect(problemsOf({ PASSWORD_HASH_MEMORY_KIB: String(2 ** 32), PASSWORD_HASH_PASSES: '11' })).toEqual([
      "PASSWORD_HASH_MEMORY_KIB must be at most 2097152 (past any guide's advice for Argon2id)",
      "PASSWORD_HASH_PASSES must be at most 10 (past any guide's advice for Argon2id)",
    ]);
    expect(loadConfig({ PASSWORD_HASH_MEMORY_KIB: '2097152', PASSWORD_HASH_PASSES: '10' }).passwordCost).toEqual({
      memoryKiB: 2_097_152,
      passes: 10,
    });
  });

  it("BOTCHECK_VERIFY_TIMEOUT_MS: 5 s by default, up to 10 s (tried twice, within the 30 s the web app's deadline leaves past the gateway's longest wait); past it, or below 1, refused by name", () => {
    const hcaptcha = { BOTCHECK_PROVIDER: 'hcaptcha', BOTCHECK_SITE_KEY: 's', BOTCHECK_SECRET_KEY: 'k' };
    expect(loadConfig(hcaptcha).botcheck.siteverify?.verifyTimeoutMs).toBe(5000);
    expect(loadConfig({ ...hcaptcha, BOTCHECK_VERIFY_TIMEOUT_MS: '10000' }).botcheck.siteverify?.verifyTimeoutMs).toBe(10_000);
    expect(problemsOf({ BOTCHECK_VERIFY_TIMEOUT_MS: '10001' })).toEqual([
      'BOTCHECK_VERIFY_TIMEOUT_MS must be between 1 and 10000',
    ]);
    expect(problemsOf({ BOTCHECK_VERIFY_TIMEOUT_MS: '600000' })).toEqual([
      'BOTCHECK_VERIFY_TIMEOUT_MS must be between 1 and 10000',
    ]);
    expect(problemsOf({ BOTCHECK_VERIFY_TIMEOUT_MS: '0' })).toEqual(['BOTCHECK_VERIFY_TIMEOUT_MS must be between 1 and 10000']);
    expect(problemsOf({ BOTCHECK_VERIFY_TIMEOUT_MS: '2.5' })).toEqual(['BOTCHECK_VERIFY_TIMEOUT_MS must be a whole number']);
    expect(problemsOf({ GATEWAY_TIMEOUT_SECONDS: '61' })).toEqual(['GATEWAY_TIMEOUT_SECONDS must be between 1 and 60']);
  });

  it('refuses short secrets', () => {
    expect(problemsOf({ SESSION_SECRET: 'short' })).toEqual(['SESSION_SECRET must be at least 32 characters']);
  });

  it("BOTCHECK_CHECKBOX_ON: reCAPTCHA v2's checkbox for the actions named, with its own keys or the main ones", async () => {
    const { botcheckSettings } = await import('./botcheck/settings.ts');
    const base = { BOTCHECK_PROVIDER: 'recaptcha-v2', BOTCHECK_SITE_KEY: 'inv-site', BOTCHECK_SECRET_KEY: 'inv-secret' };
    const config = loadConfig({ ...base, BOTCHECK_CHECKBOX_ON: 'sign_up,save_card', BOTCHECK_CHECKBOX_SITE_KEY: 'box-site' });
    expect(config.botcheck.siteverify?.checkbox).toEqual({
      actions: ['sign_up', 'save_card'],
      siteKey: 'box-site',
      secretKey: 'inv-secret',
    });
    expect(botcheckSettings(config.botcheck, 'ses_1', 'sign_up')).toMatchObject({
      provider: 'recaptcha-v2-checkbox',
      siteKey: 'box-site',
    });
    expect(botcheckSettings(config.botcheck, 'ses_1', 'payment')).toMatchObject({
      provider: 'recaptcha-v2',
      siteKey: 'inv-site',
    });
    expect(problemsOf({ BOTCHECK_CHECKBOX_ON: 'sign_up' })).toEqual([
      "BOTCHECK_CHECKBOX_ON needs BOTCHECK_PROVIDER=recaptcha-v2 (the checkbox is reCAPTCHA v2's)",
    ]);
    expect(problemsOf({ ...base, BOTCHECK_CHECKBOX_ON: 'checkout' })[0]).toMatch(/^BOTCHECK_CHECKBOX_ON must list actions/);
  });

  it('BOTCHECK_ALERT_PROVIDER: the interactive widget payments and card saves get while the shop alert is raised, its keys required, its origin allowed', async () => {
    const { botcheckSettings } = await import('./botcheck/settings.ts');
    const config = loadConfig({
      BOTCHECK_ALERT_PROVIDER: 'turnstile',
      BOTCHECK_ALERT_SITE_KEY: 'alert-site',
      BOTCHECK_ALERT_SECRET_KEY: 'alert-secret',
    });
    expect(config.botcheck.alert).toMatchObject({
      provider: 'turnstile',
      secretKey: 'alert-secret',
      verifyUrl: 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
    });
    expect(config.botcheck.widgetOrigins).toEqual(['https://challenges.cloudflare.com']);
    expect(botcheckSettings(config.botcheck, 'ses_1', 'save_card', true)).toMatchObject({
      provider: 'turnstile',
      siteKey: 'alert-site',
      tokenPrefix: 'alert:',
    });
    expect(botcheckSettings(config.botcheck, 'ses_1', 'save_card', false)).toMatchObject({ provider: 'altcha' });
    expect(problemsOf({ BOTCHECK_ALERT_PROVIDER: 'hcaptcha' })).toEqual([
      "BOTCHECK_ALERT_SITE_KEY is required with BOTCHECK_ALERT_PROVIDER=hcaptcha (the provider's site key)",
      "BOTCHECK_ALERT_SECRET_KEY is required with BOTCHECK_ALERT_PROVIDER=hcaptcha (the provider's secret key)",
    ]);
    expect(problemsOf({ BOTCHECK_ALERT_PROVIDER: 'recaptcha-v3' })[0]).toMatch(/^BOTCHECK_ALERT_PROVIDER must be one of/);
    expect(loadConfig({}).botcheck.alert).toBeNull();
  });
});
