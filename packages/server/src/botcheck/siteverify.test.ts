import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  STANDIN_KEYS,
  TEST_KEYS,
  TEST_KEY_HOSTNAMES,
  standinUrls,
  startBotcheckStandin,
} from '../testing/botcheck-standin/standin.ts';
import type { BotcheckStandin, StandinProvider } from '../testing/botcheck-standin/standin.ts';
import { SiteverifyVerifier } from './siteverify.ts';
import { botcheckBinding } from './verifier.ts';

// reCAPTCHA, hCaptcha and Turnstile cannot be reached from here (no internet): the verifier talks over HTTP to the
// local stand-in of their siteverify endpoints and widgets (src/testing/botcheck-standin/), which models their
// published behaviour.

const SECRET = 'x'.repeat(32);
const BINDING = botcheckBinding(SECRET, 'ses_shopper', 'payment');
const CONTEXT = { remoteIp: '203.0.113.7', hostnames: ['shop.test'] };

let standin: BotcheckStandin;
beforeAll(async () => {
  standin = await startBotcheckStandin();
});
afterAll(() => standin.close());
beforeEach(() => Object.assign(standin.controls, { down: false, interactive: false, score: 0.9, clockOffsetSeconds: 0 }));

function verifier(provider: StandinProvider, keys: { siteKey: string; secretKey: string } = STANDIN_KEYS, minScore = 0.5) {
  return new SiteverifyVerifier({
    provider,
    ...keys,
    verifyUrl: standinUrls(standin.url, provider).verifyUrl,
    minScore,
    timeoutMs: 2000,
  });
}

/** What the widget's anchor frame does on the page: asks the provider for a token for its site key. */
async function widgetToken(
  provider: StandinProvider,
  options: { hostname?: string; action?: string; cdata?: string; siteKey?: string } = {},
): Promise<string> {
  const response = await fetch(`${standin.url}/token`, {
    method: 'POST',
    body: JSON.stringify({
      kind: provider.startsWith('recaptcha') ? 'recaptcha' : provider,
      v3: provider === 'recaptcha-v3',
      sitekey: options.siteKey ?? STANDIN_KEYS.siteKey,
      hostname: options.hostname ?? 'shop.test',
      action: options.action ?? 'payment',
      cdata: options.cdata ?? BINDING.session,
    }),
  });
  return ((await response.json()) as { token: string }).token;
}

describe.each(['recaptcha-v2', 'recaptcha-v3', 'hcaptcha', 'turnstile'] as const)(
  'SiteverifyVerifier (%s, against the local stand-in)',
  (provider) => {
    it("accepts a fresh token, sending the secret, the token and the client's address", async () => {
      const token = await widgetToken(provider);
      expect(await verifier(provider).verify(token, BINDING, CONTEXT)).toMatchObject({ ok: true });
      const sent = standin.lastVerify();
      expect(sent?.get('secret')).toBe(STANDIN_KEYS.secretKey);
      expect(sent?.get('response')).toBe(token);
      expect(sent?.get('remoteip')).toBe('203.0.113.7');
      if (provider === 'hcaptcha') expect(sent?.get('sitekey')).toBe(STANDIN_KEYS.siteKey);
      if (provider === 'turnstile') expect(sent?.get('idempotency_key')).toMatch(/^[0-9a-f-]{36}$/);
    });

    it('refuses a replayed token, an expired one, one solved on another host, and garbage', async () => {
      const token = await widgetToken(provider);
      await verifier(provider).verify(token, BINDING, CONTEXT);
      expect(await verifier(provider).verify(token, BINDING, CONTEXT)).toEqual({
        ok: false,
        reason: 'refused by the provider (timeout-or-duplicate)',
      });
      const stale = await widgetToken(provider);
      standin.controls.clockOffsetSeconds = 301;
      expect(await verifier(provider).verify(stale, BINDING, CONTEXT)).toEqual({
        ok: false,
        reason: 'refused by the provider (timeout-or-duplicate)',
      });
      standin.controls.clockOffsetSeconds = 0;
      const elsewhere = await widgetToken(provider, { hostname: 'evil.test' });
      expect(await verifier(provider).verify(elsewhere, BINDING, CONTEXT)).toEqual({
        ok: false,
        reason: 'solved on another host (evil.test)',
      });
      expect(await verifier(provider).verify('made-up', BINDING, CONTEXT)).toEqual({
        ok: false,
        reason: 'refused by the provider (invalid-input-response)',
      });
    });

    it('fails closed when the provider is down: refused, marked unavailable', async () => {
      const token = await widgetToken(provider);
      standin.controls.down = true;
      expect(await verifier(provider).verify(token, BINDING, CONTEXT)).toEqual({
        ok: false,
        reason: 'provider unavailable',
        unavailable: true,
      });
    });

    it("refuses a token when the secret key is not the site key's", async () => {
      const token = await widgetToken(provider);
      expect(
        await verifier(provider, { siteKey: STANDIN_KEYS.siteKey, secretKey: 'another-secret' }).verify(token, BINDING, CONTEXT),
      ).toEqual({
        ok: false,
        reason: 'refused by the provider (invalid-input-secret)',
      });
    });
  },
);

describe('SiteverifyVerifier: what only some providers report', () => {
  it('reCAPTCHA v3: refuses a score below the threshold and a token made for another action', async () => {
    standin.controls.score = 0.3;
    expect(await verifier('recaptcha-v3').verify(await widgetToken('recaptcha-v3'), BINDING, CONTEXT)).toEqual({
      ok: false,
      reason: 'score too low (0.3)',
    });
    expect(
      await verifier('recaptcha-v3', STANDIN_KEYS, 0.2).verify(await widgetToken('recaptcha-v3'), BINDING, CONTEXT),
    ).toMatchObject({ ok: true });
    standin.controls.score = 0.9;
    const signIn = await widgetToken('recaptcha-v3', { action: 'sign_in' });
    expect(await verifier('recaptcha-v3').verify(signIn, BINDING, CONTEXT)).toEqual({
      ok: false,
      reason: 'issued for another action',
    });
  });

  it('Turnstile: refuses a token rendered for another session (its cData) or another action', async () => {
    const other = botcheckBinding(SECRET, 'ses_attacker', 'payment');
    expect(
      await verifier('turnstile').verify(await widgetToken('turnstile', { cdata: other.session }), BINDING, CONTEXT),
    ).toEqual({ ok: false, reason: 'issued to another session' });
    expect(await verifier('turnstile').verify(await widgetToken('turnstile', { action: 'sign_in' }), BINDING, CONTEXT)).toEqual({
      ok: false,
      reason: 'issued for another action',
    });
  });

  it("the published test keys: pass on their own host name only, Turnstile's failing and spent secrets refuse", async () => {
    const onTestHost = {
      ...CONTEXT,
      hostnames: [...CONTEXT.hostnames, TEST_KEY_HOSTNAMES.recaptcha, TEST_KEY_HOSTNAMES.hcaptcha, TEST_KEY_HOSTNAMES.turnstile],
    };
    const recaptcha = verifier('recaptcha-v2', TEST_KEYS.recaptcha);
    expect(await recaptcha.verify('anything', BINDING, CONTEXT)).toEqual({
      ok: false,
      reason: 'solved on another host (testkey.google.com)',
    });
    expect(await recaptcha.verify('anything', BINDING, onTestHost)).toMatchObject({ ok: true });
    const hcaptcha = verifier('hcaptcha', TEST_KEYS.hcaptcha);
    expect(
      await hcaptcha.verify(await widgetToken('hcaptcha', { siteKey: TEST_KEYS.hcaptcha.siteKey }), BINDING, onTestHost),
    ).toMatchObject({ ok: true });
    const turnstileKeys = (secretKey: string) => ({ siteKey: TEST_KEYS.turnstile.passSiteKey, secretKey });
    const dummy = await widgetToken('turnstile', { siteKey: TEST_KEYS.turnstile.passSiteKey });
    expect(dummy).toBe(TEST_KEYS.turnstile.response);
    expect(await verifier('turnstile', turnstileKeys(TEST_KEYS.turnstile.failSecret)).verify(dummy, BINDING, onTestHost)).toEqual(
      { ok: false, reason: 'refused by the provider (invalid-input-response)' },
    );
    expect(
      await verifier('turnstile', turnstileKeys(TEST_KEYS.turnstile.spentSecret)).verify(dummy, BINDING, onTestHost),
    ).toEqual({ ok: false, reason: 'refused by the provider (timeout-or-duplicate)' });
    // The passing test secret answers no cData and no action: Kassa's binding checks still refuse it.
    expect(await verifier('turnstile', turnstileKeys(TEST_KEYS.turnstile.passSecret)).verify(dummy, BINDING, onTestHost)).toEqual(
      { ok: false, reason: 'issued for another action' },
    );
  });

  it("reCAPTCHA v2's checkbox: its actions verify with the checkbox key pair, the others with the main one", async () => {
    // Only the checkbox's secret is the stand-in's: a sign_up token verifies, a payment's goes out with the other secret.
    const checkbox = new SiteverifyVerifier({
      provider: 'recaptcha-v2',
      siteKey: 'invisible-site-key',
      secretKey: 'invisible-secret-key',
      checkbox: { actions: ['sign_up'], ...STANDIN_KEYS },
      verifyUrl: standinUrls(standin.url, 'recaptcha-v2').verifyUrl,
      minScore: 0.5,
      timeoutMs: 2000,
    });
    const signUp = botcheckBinding(SECRET, 'ses_shopper', 'sign_up');
    expect(await checkbox.verify(await widgetToken('recaptcha-v2'), signUp, CONTEXT)).toMatchObject({ ok: true });
    expect(standin.lastVerify()?.get('secret')).toBe(STANDIN_KEYS.secretKey);
    expect(await checkbox.verify(await widgetToken('recaptcha-v2'), BINDING, CONTEXT)).toMatchObject({ ok: false });
    expect(standin.lastVerify()?.get('secret')).toBe('invisible-secret-key');
  });
});
