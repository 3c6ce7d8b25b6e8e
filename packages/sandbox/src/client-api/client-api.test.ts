import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, startSandboxWithClient } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// The browser's API, called with fetch as the hosted field frames and the checkout do.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let token: ClientToken;

const nextYear = new Date().getUTCFullYear() + 1;

beforeAll(async () => {
  ({ sandbox, gateway, token } = await startSandboxWithClient());
});
afterAll(async () => {
  await sandbox.close();
});

function tokenize(creditCard: Record<string, unknown>, fingerprint = token.authorizationFingerprint): Promise<Response> {
  return fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'http://shop.example' },
    body: JSON.stringify({ authorizationFingerprint: fingerprint, creditCard }),
  });
}

interface Tokenized {
  creditCards: Array<{ nonce: string; details: Record<string, unknown> } & Record<string, unknown>>;
}

interface Rejected {
  error: { message: string };
  fieldErrors: Array<{ field: string; fieldErrors: Array<{ field: string; code?: string; fieldErrors?: unknown[] }> }>;
}

describe('configuration', () => {
  it('answers the contract shape with CORS for any origin', async () => {
    const response = await fetch(
      `${token.configUrl}?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
      {
        headers: { origin: 'http://shop.example' },
      },
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    expect(await response.json()).toEqual({
      environment: 'sandbox',
      merchantId: sandbox.merchantId,
      clientApiUrl: token.clientApiUrl,
      assetsUrl: sandbox.origin,
      challenges: ['cvv', 'postal_code'],
      creditCards: {
        supportedCardTypes: ['Visa', 'MasterCard', 'American Express', 'Discover', 'JCB', 'UnionPay', 'Maestro', 'Diners Club'],
      },
      threeDSecureEnabled: false,
      paypalEnabled: false,
      applePayWeb: null,
      androidPay: null,
      payWithVenmo: null,
    });
  });

  it.each([
    ['missing', ''],
    ['forged', 'eyJ.abc'],
    ['tampered', 'x'],
  ])('refuses a %s fingerprint with 401', async (_name, value) => {
    const fingerprint = value === 'x' ? `${token.authorizationFingerprint.slice(0, -2)}AA` : value;
    const response = await fetch(`${token.configUrl}?authorizationFingerprint=${encodeURIComponent(fingerprint)}`);
    expect(response.status).toBe(401);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(await response.json()).toEqual({ error: { message: 'Authorization fingerprint is invalid' } });
  });

  it('refuses a fingerprint from another sandbox', async () => {
    const other = await startSandbox();
    try {
      const response = await fetch(
        `${other.origin}/merchants/${other.merchantId}/client_api/v1/configuration?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
      );
      expect(response.status).toBe(401);
    } finally {
      await other.close();
    }
  });

  it('answers CORS preflights', async () => {
    const response = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://shop.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('content-type');
  });
});

describe('credit card tokenization', () => {
  it.each([
    ['4111111111111111', 'Visa', '123'],
    ['5555555555554444', 'MasterCard', '123'],
    ['378282246310005', 'American Express', '1234'],
    ['6011000991300009', 'Discover', '123'],
    ['3530111333300000', 'JCB', '123'],
    ['36259600000004', 'Diners Club', '123'],
    ['6304000000000000', 'Maestro', '123'],
    ['6243030000000001', 'UnionPay', '123'],
    ['2223000048400011', 'MasterCard', '123'],
  ])('tokenizes %s as %s', async (number, cardType, cvv) => {
    const response = await tokenize({
      number,
      expirationDate: `07/${nextYear}`,
      cvv,
      cardholderName: 'Ada Lovelace',
      billingAddress: { postalCode: 'SW1A 1AA' },
    });
    expect(response.status).toBe(201);
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    const { creditCards } = (await response.json()) as Tokenized;
    expect(creditCards).toHaveLength(1);
    expect(creditCards[0]).toEqual({
      nonce: expect.any(String),
      type: 'CreditCard',
      description: `ending in ${number.slice(-2)}`,
      consumed: false,
      details: {
        bin: number.slice(0, 6),
        cardType,
        lastFour: number.slice(-4),
        lastTwo: number.slice(-2),
        expirationMonth: '07',
        expirationYear: String(nextYear),
        cardholderName: 'Ada Lovelace',
      },
      binData: {
        commercial: 'Unknown',
        countryOfIssuance: 'Unknown',
        debit: 'Unknown',
        durbinRegulated: 'Unknown',
        healthcare: 'Unknown',
        issuingBank: 'Unknown',
        payroll: 'Unknown',
        prepaid: 'Unknown',
        productId: 'Unknown',
      },
      threeDSecureInfo: null,
    });
  });

  it('accepts MM/YYYY and a number with spaces, and the nonce pays once', async () => {
    const response = await tokenize({ number: '4111 1111 1111 1111', expirationDate: `12/${nextYear + 1}` });
    const { creditCards } = (await response.json()) as Tokenized;
    const nonce = creditCards[0]?.nonce ?? '';
    expect((await gateway.transaction.sale({ amount: '1.00', paymentMethodNonce: nonce })).success).toBe(true);
    expect((await gateway.transaction.sale({ amount: '1.00', paymentMethodNonce: nonce })).success).toBe(false);
  });

  async function rejection(creditCard: Record<string, unknown>): Promise<Array<[string, string | undefined]>> {
    const response = await tokenize(creditCard);
    expect(response.status).toBe(422);
    const body = (await response.json()) as Rejected;
    expect(body.error.message).toEqual(expect.any(String));
    expect(body.fieldErrors[0]?.field).toBe('creditCard');
    return (body.fieldErrors[0]?.fieldErrors ?? []).map((entry) => [entry.field, entry.code]);
  }

  it.each([
    ['a Luhn failure', { number: '4111111111111112' }, [['number', '81715']]],
    ['a missing number', { number: '' }, [['number', '81714']]],
    ['a short number', { number: '41111' }, [['number', '81716']]],
    ['an unsupported brand (Elo)', { number: '6363680000457017' }, [['number', '81703']]],
    ['a past expiry', { expirationDate: `01/${new Date().getUTCFullYear() - 1}` }, [['expirationYear', '81713']]],
    ['a bad month', { expirationDate: `13/${nextYear}` }, [['expirationMonth', '81712']]],
    ['a malformed expiry', { expirationDate: 'soon' }, [['expirationDate', '81710']]],
    ['an Amex with a 3-digit CVV', { number: '378282246310005', cvv: '123' }, [['cvv', '81707']]],
    ['a Visa with a 4-digit CVV', { cvv: '1234' }, [['cvv', '81707']]],
    ['a 256-character name', { cardholderName: 'a'.repeat(256) }, [['cardholderName', '81723']]],
    [
      'a name that is only digits, spaces and dashes (the frames refuse it too)',
      { cardholderName: '4111 1111-1111' },
      [['cardholderName', '81723']],
    ],
  ])('refuses %s with 422', async (_name, override, expected) => {
    const card = { number: '4111111111111111', expirationDate: `12/${nextYear}`, ...override };
    expect(await rejection(card)).toEqual(expected);
  });

  it.each(['a ', ' a1', '#AB1', 'A'])('refuses the postal code %j as the frames do (81813)', async (postalCode) => {
    const response = await tokenize({
      number: '4111111111111111',
      expirationDate: `12/${nextYear}`,
      billingAddress: { postalCode },
    });
    expect(response.status).toBe(422);
    expect(JSON.stringify(await response.json())).toContain('"code":"81813"');
  });

  it('nests a postal code error under billingAddress', async () => {
    const response = await tokenize({
      number: '4111111111111111',
      expirationDate: `12/${nextYear}`,
      billingAddress: { postalCode: '-1' },
    });
    expect(response.status).toBe(422);
    const body = (await response.json()) as Rejected;
    expect(body.fieldErrors).toEqual([
      {
        field: 'creditCard',
        fieldErrors: [
          {
            field: 'billingAddress',
            fieldErrors: [{ field: 'postalCode', code: '81813', message: expect.any(String) }],
          },
        ],
      },
    ]);
  });

  it('refuses a bad fingerprint with 401', async () => {
    const response = await tokenize({ number: '4111111111111111', expirationDate: `12/${nextYear}` }, 'nope');
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ error: { message: 'Authorization fingerprint is invalid' } });
  });
});

describe('payment methods', () => {
  it('lists none for a guest and for a customer (saved methods are not emulated yet)', async () => {
    const created = await gateway.customer.create({});
    const { clientToken } = await gateway.clientToken.generate({ customerId: created.customer.id });
    const customerToken = decodeClientToken(clientToken);
    for (const fingerprint of [token.authorizationFingerprint, customerToken.authorizationFingerprint]) {
      const response = await fetch(
        `${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=${encodeURIComponent(fingerprint)}`,
      );
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ paymentMethods: [] });
    }
    const refused = await fetch(`${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=bad`);
    expect(refused.status).toBe(401);
  });
});
