import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, gatewayFor } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// The browser's 3-D Secure 2 flow against the client API (fetch, as the checkout calls it): lookup, the challenge
// page's calls, the result; then the nonce charged through the official SDK.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let token: ClientToken;
const year = new Date().getUTCFullYear() + 3;

beforeAll(async () => {
  sandbox = await startSandbox({ merchantSettings: { threeDSecure: true }, testControls: true });
  gateway = gatewayFor(sandbox);
  token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
});
afterAll(async () => {
  await sandbox.close();
});

interface Info {
  liabilityShifted: boolean;
  liabilityShiftPossible: boolean;
  status: string;
}
interface PaymentMethod {
  nonce: string;
  details: { lastFour: string };
  threeDSecureInfo: (Info & { enrolled: string; cavv: string | null; eciFlag: string | null }) | null;
}
interface Lookup {
  paymentMethod: PaymentMethod | null;
  lookup: { challengeId: string | null; acsUrl: string | null; threeDSecureVersion: string; transStatus: string | null };
  threeDSecureInfo: Info;
}

async function tokenize(number: string): Promise<string> {
  const response = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: token.authorizationFingerprint,
      creditCard: { number, expirationDate: `01/${year}`, cvv: /^3[47]/.test(number) ? '1234' : '123' },
    }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { creditCards: Array<{ nonce: string }> }).creditCards[0]?.nonce ?? '';
}

function lookup(
  nonce: string,
  amount: unknown = '25.00',
  fingerprint = token.authorizationFingerprint,
  browser: Record<string, unknown> = {},
): Promise<Response> {
  return fetch(`${token.clientApiUrl}/v1/payment_methods/${nonce}/three_d_secure/lookup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://shop.example' },
    body: JSON.stringify({ authorizationFingerprint: fingerprint, amount, ...browser }),
  });
}

async function lookupOf(number: string): Promise<Lookup> {
  const response = await lookup(await tokenize(number));
  expect(response.status).toBe(201);
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  return (await response.json()) as Lookup;
}

function challengeResult(challengeId: string): Promise<Response> {
  return fetch(`${token.clientApiUrl}/v1/three_d_secure/challenges/${challengeId}/result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint }),
  });
}

const pageCall = (challengeId: string, action: 'answer' | 'cancel', body: unknown = {}): Promise<Response> =>
  fetch(`${sandbox.origin}/three-d-secure/challenges/${challengeId}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('lookup without a challenge: a new nonce carrying the result', () => {
  it.each([
    [
      'frictionless success (Visa)',
      '4000000000002701',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful' },
      'Y',
    ],
    [
      'frictionless success (Mastercard)',
      '5200000000002235',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful' },
      'Y',
    ],
    [
      'frictionless success (Amex)',
      '340000000002708',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful' },
      'Y',
    ],
    [
      'frictionless failure',
      '4000000000002925',
      { liabilityShifted: false, liabilityShiftPossible: true, status: 'authenticate_frictionless_failed' },
      'N',
    ],
    [
      'attempt successful',
      '5200000000002482',
      { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_attempt_successful' },
      'A',
    ],
    [
      'unavailable',
      '4000000000002313',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'authentication_unavailable' },
      'U',
    ],
    [
      'lookup error',
      '4000000000001125',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'lookup_error' },
      null,
    ],
    [
      'lookup time-out',
      '4000000000001075',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'lookup_error' },
      null,
    ],
    [
      'a card that is not enrolled',
      '4111111111111111',
      { liabilityShifted: false, liabilityShiftPossible: false, status: 'lookup_not_enrolled' },
      null,
    ],
  ])('%s', async (_name, number, expected, transStatus) => {
    const body = await lookupOf(number);
    expect(body.threeDSecureInfo).toEqual(expected);
    expect(body.lookup).toMatchObject({ challengeId: null, acsUrl: null, threeDSecureVersion: '2.2.0', transStatus });
    expect(body.paymentMethod?.details.lastFour).toBe(number.slice(-4));
    expect(body.paymentMethod?.threeDSecureInfo).toMatchObject(expected);

    // The new nonce charges with that result; with threeDSecure.required, only a shifted liability goes through.
    const sale = await gateway.transaction.sale({
      amount: '25.00',
      paymentMethodNonce: body.paymentMethod?.nonce ?? '',
      options: { threeDSecure: { required: true } },
    });
    expect(sale.transaction.threeDSecureInfo).toMatchObject(expected);
    expect(sale.transaction.status).toBe(expected.liabilityShifted ? 'authorized' : 'gateway_rejected');
  });

  it('the card keeps its scenario when saved: the original nonce stays usable without 3-D Secure', async () => {
    const nonce = await tokenize('4000000000002701');
    expect((await lookup(nonce)).status).toBe(201);
    const plain = await gateway.transaction.sale({ amount: '25.00', paymentMethodNonce: nonce });
    expect(plain.transaction.threeDSecureInfo).toBeNull();
  });
});

describe('lookup refusals', () => {
  it('answers 422 for a bad amount, an unknown nonce, and 401 for a bad fingerprint', async () => {
    const nonce = await tokenize('4000000000002701');
    const badAmount = await lookup(nonce, 'ten');
    expect(badAmount.status).toBe(422);
    expect(JSON.stringify(await badAmount.json())).toContain('81503');
    const unknown = await lookup('not-a-nonce');
    expect(unknown.status).toBe(422);
    expect(JSON.stringify(await unknown.json())).toContain('91565');
    expect((await lookup(nonce, '25.00', 'forged')).status).toBe(401);
  });

  it('answers 422 when 3-D Secure is not enabled for the merchant', async () => {
    sandbox.settings.update({ threeDSecure: false });
    try {
      const response = await lookup(await tokenize('4000000000002701'));
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        '3D Secure is not enabled for this merchant account.',
      );
    } finally {
      sandbox.settings.reset();
    }
  });
});

describe('challenge', () => {
  it('the success card with code 1234: the page is served, the result nonce shifts liability', async () => {
    const body = await lookupOf('4000000000001091');
    expect(body.paymentMethod).toBeNull();
    expect(body.threeDSecureInfo).toEqual({
      liabilityShifted: false,
      liabilityShiftPossible: true,
      status: 'challenge_required',
    });
    expect(body.lookup.acsUrl).toBe(`${sandbox.origin}/three-d-secure/challenge.html`);
    const challengeId = body.lookup.challengeId ?? '';
    expect(challengeId).toMatch(/^[0-9a-f]{32}$/);

    const details = await fetch(`${sandbox.origin}/three-d-secure/challenges/${challengeId}`);
    expect(await details.json()).toEqual({
      state: 'pending',
      amount: '25.00',
      currencyIsoCode: 'USD',
      cardType: 'Visa',
      lastFour: '1091',
    });
    const pending = await challengeResult(challengeId);
    expect(pending.status).toBe(422);

    expect(await (await pageCall(challengeId, 'answer', { code: '1234' })).json()).toEqual({ state: 'completed' });
    const result = await challengeResult(challengeId);
    expect(result.status).toBe(201);
    const { paymentMethod, threeDSecureInfo } = (await result.json()) as { paymentMethod: PaymentMethod; threeDSecureInfo: Info };
    expect(threeDSecureInfo).toEqual({ liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful' });
    expect(paymentMethod.threeDSecureInfo).toMatchObject({ enrolled: 'Y', eciFlag: '05', cavv: expect.any(String) });

    const sale = await gateway.transaction.sale({
      amount: '25.00',
      paymentMethodNonce: paymentMethod.nonce,
      options: { threeDSecure: { required: true } },
    });
    expect(sale.transaction.status).toBe('authorized');
    // A challenge is answered once.
    expect(await (await pageCall(challengeId, 'answer', { code: '0000' })).json()).toEqual({ state: 'completed' });
  });

  it.each([
    ['the success card with a wrong code', '4000000000001091', '9999'],
    ['the failure card, even with 1234', '4000000000001109', '1234'],
  ])('%s: authentication fails, liability not shifted', async (_name, number, code) => {
    const challengeId = (await lookupOf(number)).lookup.challengeId ?? '';
    await pageCall(challengeId, 'answer', { code });
    const result = (await (await challengeResult(challengeId)).json()) as { threeDSecureInfo: Info };
    expect(result.threeDSecureInfo).toEqual({
      liabilityShifted: false,
      liabilityShiftPossible: true,
      status: 'authenticate_failed',
    });
  });

  it('cancelled: no result (422), and an unknown challenge is 404 everywhere', async () => {
    const challengeId = (await lookupOf('4000000000001091')).lookup.challengeId ?? '';
    expect(await (await pageCall(challengeId, 'cancel')).json()).toEqual({ state: 'cancelled' });
    const result = await challengeResult(challengeId);
    expect(result.status).toBe(422);
    expect(((await result.json()) as { error: { message: string } }).error.message).toBe(
      'The 3D Secure challenge was cancelled.',
    );
    expect((await pageCall('0'.repeat(32), 'answer', { code: '1234' })).status).toBe(404);
    expect((await fetch(`${sandbox.origin}/three-d-secure/challenges/${'0'.repeat(32)}`)).status).toBe(404);
    expect((await challengeResult('0'.repeat(32))).status).toBe(404);
  });

  it("another customer's checkout cannot read the result", async () => {
    const challengeId = (await lookupOf('4000000000001091')).lookup.challengeId ?? '';
    await pageCall(challengeId, 'answer', { code: '1234' });
    const customer = await gateway.customer.create({});
    const other = decodeClientToken((await gateway.clientToken.generate({ customerId: customer.customer.id })).clientToken);
    const response = await fetch(`${token.clientApiUrl}/v1/three_d_secure/challenges/${challengeId}/result`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ authorizationFingerprint: other.authorizationFingerprint }),
    });
    expect(response.status).toBe(404);
  });
});

describe("the shopper's browser sent with the lookup (device data)", () => {
  // What braintree-web 3.144's verifyCard adds to the lookup with collectDeviceData: true (three-d-secure/external/
  // frameworks/base.js, _formatLookupData), here as Chromium at 1920 x 1080 in Zurich in winter would send it.
  const sent = {
    browserColorDepth: 24,
    browserJavaEnabled: false,
    browserJavascriptEnabled: true,
    browserLanguage: 'de-CH',
    browserScreenHeight: 1080,
    browserScreenWidth: 1920,
    browserTimeZone: -60,
    deviceChannel: 'Browser',
  };
  const recorded = {
    deviceChannel: 'Browser',
    colorDepth: 24,
    javaEnabled: false,
    javascriptEnabled: true,
    language: 'de-CH',
    screenHeight: 1080,
    screenWidth: 1920,
    timeZone: -60,
  };
  const browserOf = async (transactionId: string): Promise<unknown> =>
    (
      (await (await fetch(`${sandbox.origin}/__sandbox/transactions/${transactionId}/device-data`)).json()) as {
        threeDSecureBrowser: unknown;
      }
    ).threeDSecureBrowser;
  const charge = async (nonce: string): Promise<string> =>
    (await gateway.transaction.sale({ amount: '25.00', paymentMethodNonce: nonce })).transaction.id;

  it('is kept with the frictionless result, and the sale with its nonce names it', async () => {
    const response = await lookup(await tokenize('4000000000002701'), '25.00', token.authorizationFingerprint, sent);
    expect(response.status).toBe(201);
    const { paymentMethod } = (await response.json()) as Lookup;
    expect(await browserOf(await charge(paymentMethod?.nonce ?? ''))).toEqual(recorded);
  });

  it('is kept through a challenge, with the result the code gave', async () => {
    const response = await lookup(await tokenize('4000000000001091'), '25.00', token.authorizationFingerprint, sent);
    const challengeId = ((await response.json()) as Lookup).lookup.challengeId ?? '';
    await pageCall(challengeId, 'answer', { code: '1234' });
    const { paymentMethod } = (await (await challengeResult(challengeId)).json()) as { paymentMethod: PaymentMethod };
    expect(await browserOf(await charge(paymentMethod.nonce))).toEqual(recorded);
  });

  it('is optional: a malformed field is left out and the lookup goes on; none sent, none kept', async () => {
    // Each field malformed in one of two lookups, the other half well-formed and kept.
    const halves = [
      {
        malformed: { browserColorDepth: 23, browserScreenWidth: '1920', browserTimeZone: 900, browserLanguage: 'de CH; x' },
        kept: { deviceChannel: 'Browser', javaEnabled: false, javascriptEnabled: true, screenHeight: 1080 },
      },
      {
        malformed: {
          deviceChannel: 'App',
          browserJavaEnabled: 'false',
          browserJavascriptEnabled: 1,
          browserScreenHeight: 1_000_000,
        },
        kept: { colorDepth: 24, language: 'de-CH', screenWidth: 1920, timeZone: -60 },
      },
    ];
    for (const { malformed, kept } of halves) {
      const response = await lookup(await tokenize('4000000000002701'), '25.00', token.authorizationFingerprint, {
        ...sent,
        ...malformed,
      });
      expect(response.status).toBe(201);
      const { paymentMethod } = (await response.json()) as Lookup;
      expect(await browserOf(await charge(paymentMethod?.nonce ?? ''))).toEqual(kept);
    }
    expect(await browserOf(await charge((await lookupOf('4000000000002701')).paymentMethod?.nonce ?? ''))).toBeNull();
  });
});
