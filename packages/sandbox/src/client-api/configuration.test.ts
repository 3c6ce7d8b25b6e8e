import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, gatewayFor } from '../testing/sandbox.ts';

// The merchant settings as the browser reads them: GET v1/configuration, in the provider's shapes.

let sandbox: Sandbox;
let configUrl: string;

beforeAll(async () => {
  sandbox = await startSandbox({
    currencyIsoCode: 'EUR',
    testControls: true,
    merchantSettings: { challenges: ['cvv'], threeDSecure: true, wallets: ['paypal', 'apple_pay', 'google_pay', 'venmo'] },
  });
  const token = decodeClientToken((await gatewayFor(sandbox).clientToken.generate({})).clientToken);
  configUrl = `${token.configUrl}?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`;
});
afterAll(async () => {
  await sandbox.close();
});

async function configuration(): Promise<Record<string, unknown>> {
  const response = await fetch(configUrl);
  expect(response.status).toBe(200);
  return (await response.json()) as Record<string, unknown>;
}

describe('merchant settings in the client configuration', () => {
  it('reports the challenges, 3-D Secure and every wallet turned on, in the provider shapes', async () => {
    const body = await configuration();
    expect(body).toMatchObject({
      challenges: ['cvv'],
      threeDSecureEnabled: true,
      paypalEnabled: true,
      paypal: {
        displayName: 'Kassa sandbox merchant',
        environment: 'offline',
        environmentNoNetwork: true,
        assetsUrl: sandbox.origin,
        currencyIsoCode: 'EUR',
        merchantAccountId: sandbox.merchantId,
        billingAgreementsEnabled: true,
      },
      applePayWeb: {
        countryCode: 'US',
        currencyCode: 'EUR',
        merchantIdentifier: `merchant.kassa.sandbox.${sandbox.merchantId}`,
        supportedNetworks: ['visa', 'mastercard', 'amex', 'discover'],
      },
      androidPay: { enabled: true, environment: 'sandbox', supportedNetworks: ['visa', 'mastercard', 'amex', 'discover'] },
      payWithVenmo: { merchantId: sandbox.merchantId, environment: 'sandbox' },
    });
  });

  it("carries braintree-web's 3-D Secure 2 block while 3-D Secure is on: a fresh Cardinal-shaped JWT each time", async () => {
    const claimsOf = (body: Record<string, unknown>): Record<string, unknown> => {
      const { cardinalAuthenticationJWT: jwt, cardinalSongbirdUrl } = body['threeDSecure'] as Record<string, unknown>;
      expect(cardinalSongbirdUrl).toBe('https://songbirdstag.cardinalcommerce.com/edge/v1/songbird.js');
      const [header, claims, signature, extra] = String(jwt).split('.');
      expect(extra).toBeUndefined();
      expect(signature).toMatch(/^[\w-]{43}$/);
      expect(JSON.parse(Buffer.from(String(header), 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
      return JSON.parse(Buffer.from(String(claims), 'base64url').toString()) as Record<string, unknown>;
    };
    const before = Math.floor(Date.now() / 1000);
    const first = claimsOf(await configuration());
    sandbox.advanceClock(3_600_000);
    const second = claimsOf(await configuration());
    expect(first).toMatchObject({ iss: 'kassa-sandbox', OrgUnitId: sandbox.merchantId });
    expect(first['iat']).toBeGreaterThanOrEqual(before);
    expect(first['exp']).toBe(Number(first['iat']) + 7200);
    // Issued at the sandbox's time, a new jti each configuration (Cardinal: one JWT per order).
    expect(Number(second['iat']) - Number(first['iat'])).toBeGreaterThanOrEqual(3600);
    expect(second['jti']).toMatch(/^[\da-f-]{36}$/);
    expect(second['jti']).not.toBe(first['jti']);

    sandbox.settings.update({ threeDSecure: false });
    const off = await configuration();
    expect(off).toMatchObject({ threeDSecureEnabled: false });
    expect(off).not.toHaveProperty('threeDSecure');
    sandbox.settings.reset();
  });

  it('changes while running (the next configuration request sees it) and resets to the start values', async () => {
    sandbox.settings.update({ challenges: ['postal_code'], wallets: ['venmo'] });
    const changed = await configuration();
    expect(changed).toMatchObject({
      challenges: ['postal_code'],
      threeDSecureEnabled: true,
      paypalEnabled: false,
      applePayWeb: null,
      androidPay: null,
    });
    expect(changed).not.toHaveProperty('paypal');
    expect(changed['payWithVenmo']).not.toBeNull();

    sandbox.settings.reset();
    expect(await configuration()).toMatchObject({ challenges: ['cvv'], paypalEnabled: true });
  });

  it('refuses bad settings with every problem named, at start and while running', async () => {
    await expect(startSandbox({ merchantSettings: { challenges: ['cvc'] } as never })).rejects.toThrow(
      'sandbox merchantSettings: challenges must be a list of cvv, postal_code',
    );
    expect(() => sandbox.settings.update({ threeDSecure: 'yes' } as never)).toThrow('threeDSecure must be true or false');
  });

  it('over HTTP with testControls: PATCH changes, DELETE resets, a bad value is a 400 naming it', async () => {
    const url = `${sandbox.origin}/__sandbox/settings`;
    const patch = (body: unknown): Promise<Response> =>
      fetch(url, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    const changed = await patch({ challenges: [], threeDSecure: false });
    expect(await changed.json()).toEqual({
      settings: { challenges: [], threeDSecure: false, wallets: ['paypal', 'apple_pay', 'google_pay', 'venmo'] },
    });
    expect(await configuration()).toMatchObject({ challenges: [], threeDSecureEnabled: false });

    const refused = await patch({ wallets: ['bitcoin'], colour: 'red' });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      error: {
        message: 'Invalid settings',
        problems: ['wallets must be a list of paypal, apple_pay, google_pay, venmo', 'unknown setting "colour"'],
      },
    });

    expect((await (await fetch(url, { method: 'DELETE' })).json()) as unknown).toEqual({
      settings: { challenges: ['cvv'], threeDSecure: true, wallets: ['paypal', 'apple_pay', 'google_pay', 'venmo'] },
    });
  });

  it('has no HTTP control without testControls', async () => {
    const plain = await startSandbox();
    try {
      expect((await fetch(`${plain.origin}/__sandbox/settings`, { method: 'PATCH', body: '{}' })).status).toBe(404);
      expect(plain.settings.get()).toEqual({ challenges: ['cvv', 'postal_code'], threeDSecure: false, wallets: [] });
    } finally {
      await plain.close();
    }
  });
});
