import { describe, expect, it } from 'vitest';
import { parseClientToken } from './client-token.ts';
import { ProviderError } from './provider.ts';
import { createSandboxProvider, parseConfiguration, parseSavedMethods } from './sandbox-provider.ts';
import { gatewayConfiguration } from '../testing/fixtures.ts';
import type { HostedFields } from '../fields/hosted-fields.ts';

const token = {
  version: 2,
  environment: 'sandbox',
  authorizationFingerprint: 'fp.signed',
  configUrl: 'http://127.0.0.1:8090/merchants/m1/client_api/v1/configuration',
  clientApiUrl: 'http://127.0.0.1:8090/merchants/m1/client_api',
  assetsUrl: 'http://127.0.0.1:8090',
  merchantId: 'm1',
};
const encoded = btoa(JSON.stringify(token));

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof ProviderError ? error.info.code : 'not a ProviderError';
  }
  return undefined;
}

describe('client token', () => {
  it('decodes a generated token: what the checkout reads of it, the rest carried along unread', () => {
    expect(parseClientToken(encoded)).toEqual(token);
  });

  it('rejects a missing, garbled or incomplete token with a developer error', () => {
    expect(codeOf(() => parseClientToken(''))).toBe('invalid_authorization');
    expect(codeOf(() => parseClientToken('%%%'))).toBe('invalid_authorization');
    expect(codeOf(() => parseClientToken(btoa('{"version":2}')))).toBe('invalid_authorization');
    expect(codeOf(() => parseClientToken(btoa(JSON.stringify({ ...token, assetsUrl: 'javascript:alert(1)' }))))).toBe(
      'invalid_authorization',
    );
  });
});

describe('sandbox provider configuration', () => {
  const body = gatewayConfiguration({
    clientApiUrl: 'http://elsewhere.example/client_api',
    assetsUrl: 'http://elsewhere.example',
    challenges: ['cvv', 'postal_code'],
    supportedCardTypes: ['Visa', 'MasterCard'],
  });

  it("reads the wallets from the provider's configuration blocks", () => {
    const token = parseClientToken(encoded);
    const off = parseConfiguration({ paypalEnabled: false, applePayWeb: null, androidPay: null, payWithVenmo: null }, token);
    expect(off).toMatchObject({ paypalEnabled: false, applePayWeb: false, androidPay: false, payWithVenmo: false });
    const on = parseConfiguration(
      {
        paypalEnabled: true,
        applePayWeb: { countryCode: 'US' },
        androidPay: { enabled: true },
        payWithVenmo: { merchantId: 'v' },
      },
      token,
    );
    expect(on).toMatchObject({ paypalEnabled: true, applePayWeb: true, androidPay: true, payWithVenmo: true });
    expect(parseConfiguration({ androidPay: { enabled: false } }, token).androidPay).toBe(false);
  });

  it('fetches with the fingerprint and keeps the URLs the token vouched for', async () => {
    let requested = '';
    const provider = createSandboxProvider(encoded, async (input) => {
      requested = String(input);
      return new Response(JSON.stringify(body), { status: 200 });
    });
    const config = await provider.getConfiguration(new AbortController().signal);
    expect(new URL(requested).searchParams.get('authorizationFingerprint')).toBe('fp.signed');
    expect(config).toMatchObject({
      challenges: ['cvv', 'postal_code'],
      assetsUrl: token.assetsUrl,
      clientApiUrl: token.clientApiUrl,
    });
  });

  it('asks for the saved methods beside the configuration, not after it, and afresh once that list was taken', async () => {
    const requested: string[] = [];
    let answerConfiguration: () => void = () => {};
    const provider = createSandboxProvider(encoded, (input) => {
      const url = new URL(String(input));
      requested.push(url.pathname);
      if (url.pathname.endsWith('/configuration'))
        return new Promise((resolve) => {
          answerConfiguration = () => resolve(new Response(JSON.stringify(body), { status: 200 }));
        });
      return Promise.resolve(new Response(JSON.stringify({ paymentMethods: [] }), { status: 200 }));
    });
    const signal = new AbortController().signal;
    const configuring = provider.getConfiguration(signal);
    // The configuration has not answered, and the list is on its way already, at the token's client API.
    expect(requested).toEqual(['/merchants/m1/client_api/v1/payment_methods', '/merchants/m1/client_api/v1/configuration']);
    answerConfiguration();
    const config = await configuring;
    await expect(provider.listPaymentMethods(config, signal)).resolves.toEqual([]);
    expect(requested).toHaveLength(2);
    await provider.listPaymentMethods(config, signal);
    expect(requested).toHaveLength(3);
  });

  const answering = (status: number, headers: Record<string, string> = {}) =>
    createSandboxProvider(encoded, async () => new Response('{}', { status, headers }));

  it('tells 403, 429 (with its Retry-After) and 5xx apart', async () => {
    const signal = new AbortController().signal;
    await expect(answering(403).getConfiguration(signal)).rejects.toMatchObject({
      info: { code: 'insufficient_privileges', messageKey: 'error.insufficientPrivileges', retriable: false },
    });
    await expect(answering(429, { 'Retry-After': '7' }).getConfiguration(signal)).rejects.toMatchObject({
      info: { code: 'rate_limited', retriable: true, retryAfterMs: 7000 },
    });
    await expect(answering(503).getConfiguration(signal)).rejects.toMatchObject({
      info: { code: 'gateway', messageKey: 'error.gatewayUnavailable', retriable: true },
    });
  });

  it('gives up on a gateway that does not answer, with a retriable time-out', async () => {
    const hung = createSandboxProvider(
      encoded,
      (_, init) => new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal?.reason))),
      30,
    );
    await expect(hung.getConfiguration(new AbortController().signal)).rejects.toMatchObject({
      info: { code: 'timeout', messageKey: 'error.timeout', retriable: true },
    });
  });

  it('maps 401 to a rejected authorization and a failed fetch to a retriable network error', async () => {
    const rejected = createSandboxProvider(encoded, async () => new Response('{}', { status: 401 }));
    await expect(rejected.getConfiguration(new AbortController().signal)).rejects.toMatchObject({
      info: { code: 'authorization_rejected', retriable: false },
    });
    const offline = createSandboxProvider(encoded, async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(offline.getConfiguration(new AbortController().signal)).rejects.toMatchObject({
      info: { code: 'network', messageKey: 'error.network', retriable: true },
    });
  });
});

describe('parseSavedMethods', () => {
  it('reads saved wallets by their type with their account (email, username, card), cards as cards', async () => {
    const flags = { consumed: false, default: false, hasSubscription: false };
    const methods = await parseSavedMethods({
      paymentMethods: [
        { ...flags, nonce: 'n-pp', type: 'PayPalAccount', description: 'pat@example.com', details: { email: 'pat@example.com' } },
        {
          ...flags,
          nonce: 'n-vm',
          type: 'VenmoAccount',
          description: 'Venmo Account: venmojoe',
          details: { username: 'venmojoe' },
        },
        {
          ...flags,
          nonce: 'n-ap',
          type: 'ApplePayCard',
          description: 'Visa 1111',
          details: { cardType: 'Visa', lastFour: '1111' },
        },
        {
          ...flags,
          nonce: 'n-cc',
          type: 'CreditCard',
          description: 'ending in 44',
          default: true,
          details: { bin: '555555', cardType: 'MasterCard', lastFour: '4444', expirationMonth: '12', expirationYear: '2030' },
        },
      ],
    });
    expect(methods.map((m) => [m.type, m.details.email, m.details.username, m.details.lastFour, m.default, m.vaulted])).toEqual([
      ['PayPalAccount', 'pat@example.com', undefined, '', false, true],
      ['VenmoAccount', undefined, 'venmojoe', '', false, true],
      ['ApplePayCard', undefined, undefined, '1111', false, true],
      ['CreditCard', undefined, undefined, '4444', true, true],
    ]);
  });
});

describe('sandbox provider tokenization', () => {
  it("asks the card's frames with the token's fingerprint, where the configuration says, saving the card when asked", async () => {
    const asked: unknown[] = [];
    const fields: HostedFields = {
      channel: 'c',
      configure: () => undefined,
      setCvvSize: () => undefined,
      focus: () => undefined,
      clear: () => undefined,
      restyle: () => true,
      settle: async () => true,
      tokenize: async (request) => {
        asked.push(request);
        return { ok: false, error: { code: 'timeout', message: 'x' } };
      },
      teardown: () => undefined,
    };
    const token = parseClientToken(encoded);
    const config = parseConfiguration(gatewayConfiguration({}), token);
    const provider = createSandboxProvider(encoded);
    await provider.tokenize(fields, config, ['number', 'cvv'], false);
    await provider.tokenize(fields, config, ['number'], true);
    const fingerprint = token.authorizationFingerprint;
    expect(asked).toEqual([
      { authorizationFingerprint: fingerprint, clientApiUrl: config.clientApiUrl, fields: ['number', 'cvv'] },
      { authorizationFingerprint: fingerprint, clientApiUrl: config.clientApiUrl, fields: ['number'], vault: true },
    ]);
  });
});
