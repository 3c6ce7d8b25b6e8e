import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, futureExpiry, gatewayFor } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// The client API's saved methods for a customer-bound client token: the list (each entry with a fresh single-use
// nonce), deletion by that nonce, and "save card" tokenization. Real sandbox over HTTP; the server side through the
// official SDK.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  sandbox = await startSandbox({ cardRules: { cvv: true, avs: false } });
  gateway = gatewayFor(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

interface SavedEntry {
  nonce: string;
  default: boolean;
  hasSubscription: boolean;
  type: string;
  description: string;
  details: { lastFour: string; cardType: string };
  binData: Record<string, string>;
}

async function customerToken(options: Record<string, boolean> = {}): Promise<{ customerId: string; token: ClientToken }> {
  const { customer } = await gateway.customer.create({});
  const generated = await gateway.clientToken.generate({ customerId: customer.id, options });
  return { customerId: customer.id, token: decodeClientToken(generated.clientToken) };
}

async function list(token: ClientToken): Promise<SavedEntry[]> {
  const url = `${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`;
  const response = await fetch(url);
  expect(response.status).toBe(200);
  return ((await response.json()) as { paymentMethods: SavedEntry[] }).paymentMethods;
}

function remove(token: ClientToken, nonce: string): Promise<Response> {
  const fingerprint = encodeURIComponent(token.authorizationFingerprint);
  return fetch(`${token.clientApiUrl}/v1/payment_methods/${nonce}?authorizationFingerprint=${fingerprint}`, { method: 'DELETE' });
}

function saveCard(token: ClientToken, creditCard: Record<string, unknown>, validate = true): Promise<Response> {
  return fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: token.authorizationFingerprint,
      creditCard: { expirationDate: futureExpiry(), ...creditCard, options: { validate } },
    }),
  });
}

describe('GET v1/payment_methods', () => {
  it('lists the customer’s saved cards, the default first, each with a fresh nonce the server can charge once', async () => {
    const { customerId, token } = await customerToken();
    await gateway.paymentMethod.create({ customerId, paymentMethodNonce: 'fake-valid-visa-nonce' });
    const amex = await gateway.paymentMethod.create({
      customerId,
      paymentMethodNonce: 'fake-valid-amex-nonce',
      options: { makeDefault: true },
    });
    const first = await list(token);
    expect(first.map((entry) => [entry.details.cardType, entry.default, entry.hasSubscription, entry.type])).toEqual([
      ['American Express', true, false, 'CreditCard'],
      ['Visa', false, false, 'CreditCard'],
    ]);
    expect(first[0]).toMatchObject({
      description: 'ending in 05',
      details: { lastFour: '0005' },
      binData: { prepaid: 'Unknown' },
    });
    const second = await list(token);
    expect(second[0]?.nonce).not.toBe(first[0]?.nonce);

    const sale = await gateway.transaction.sale({ amount: '3.00', paymentMethodNonce: first[0]?.nonce ?? '' });
    expect(sale.transaction).toMatchObject({
      customer: { id: customerId },
      creditCard: { token: (amex.paymentMethod as braintree.CreditCard).token },
    });
    expect((await gateway.transaction.sale({ amount: '3.00', paymentMethodNonce: first[0]?.nonce ?? '' })).success).toBe(false);
  });

  it('marks a card paying for a live subscription, and gives guests an empty list', async () => {
    const { customerId, token } = await customerToken();
    const card = await gateway.paymentMethod.create({ customerId, paymentMethodNonce: 'fake-valid-visa-nonce' });
    await gateway.subscription.create({
      paymentMethodToken: (card.paymentMethod as braintree.CreditCard).token,
      planId: 'coffee-monthly',
    });
    expect((await list(token)).map((entry) => entry.hasSubscription)).toEqual([true]);
    const guest = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
    expect(await list(guest)).toEqual([]);
  });
});

describe('DELETE v1/payment_methods/{nonce}', () => {
  it('deletes the customer’s own card (204), then it is gone; an unknown nonce is 404', async () => {
    const { customerId, token } = await customerToken();
    const created = await gateway.paymentMethod.create({ customerId, paymentMethodNonce: 'fake-valid-visa-nonce' });
    const [entry] = await list(token);
    const response = await remove(token, entry?.nonce ?? '');
    expect(response.status).toBe(204);
    expect(await list(token)).toEqual([]);
    await expect(gateway.paymentMethod.find((created.paymentMethod as braintree.CreditCard).token)).rejects.toMatchObject({
      type: 'notFoundError',
    });
    expect((await remove(token, 'no-such-nonce')).status).toBe(404);
  });

  it('refuses another customer’s card (404), a guest (403) and a card with a live subscription (422)', async () => {
    const owner = await customerToken();
    const other = await customerToken();
    const card = await gateway.paymentMethod.create({
      customerId: owner.customerId,
      paymentMethodNonce: 'fake-valid-visa-nonce',
    });
    const [entry] = await list(owner.token);
    const nonce = entry?.nonce ?? '';
    const stranger = await remove(other.token, nonce);
    expect(stranger.status).toBe(404);
    expect(await stranger.json()).toEqual({ error: { message: 'Payment method not found.', code: 'not_found' } });
    const guest = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
    const guestAnswer = await remove(guest, nonce);
    expect(guestAnswer.status).toBe(403);
    expect(((await guestAnswer.json()) as { error: { code: string } }).error.code).toBe('customer_required');

    const token = (card.paymentMethod as braintree.CreditCard).token;
    const { subscription } = await gateway.subscription.create({ paymentMethodToken: token, planId: 'coffee-monthly' });
    const locked = await remove(owner.token, nonce);
    expect(locked.status).toBe(422);
    expect(((await locked.json()) as { error: { code: string } }).error.code).toBe('payment_method_has_subscription');
    expect((await list(owner.token)).length).toBe(1);

    await gateway.subscription.cancel(subscription.id);
    expect((await remove(owner.token, nonce)).status).toBe(204);
  });

  it('answers the CORS preflight for DELETE', async () => {
    const { token } = await customerToken();
    const response = await fetch(`${token.clientApiUrl}/v1/payment_methods/some-nonce`, {
      method: 'OPTIONS',
      headers: { origin: 'http://shop.example', 'access-control-request-method': 'DELETE' },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get('access-control-allow-methods')).toContain('DELETE');
  });
});

describe('"save card": POST v1/payment_methods/credit_cards with creditCard.options.validate', () => {
  it('saves the card for the token’s customer as the token’s options say; the nonce charges the saved card', async () => {
    const { customerId, token } = await customerToken({
      verifyCard: true,
      failOnDuplicatePaymentMethod: true,
      makeDefault: true,
    });
    const response = await saveCard(token, { number: '4111111111111111', cvv: '123' });
    expect(response.status).toBe(201);
    const { creditCards } = (await response.json()) as { creditCards: Array<{ nonce: string; details: { lastFour: string } }> };
    expect(creditCards[0]?.details.lastFour).toBe('1111');
    const [saved] = (await gateway.customer.find(customerId)).creditCards ?? [];
    expect(saved).toMatchObject({ last4: '1111', default: true, verification: { status: 'verified' } });
    const sale = await gateway.transaction.sale({ amount: '4.00', paymentMethodNonce: creditCards[0]?.nonce ?? '' });
    expect(sale.transaction.creditCard?.token).toBe(saved?.token);
  });

  it('answers a duplicate with fieldErrors 81724 on the number, and saves nothing more', async () => {
    const { customerId, token } = await customerToken({ failOnDuplicatePaymentMethod: true });
    expect((await saveCard(token, { number: '6011111111111117' })).status).toBe(201);
    const duplicate = await saveCard(token, { number: '6011111111111117' });
    expect(duplicate.status).toBe(422);
    expect(await duplicate.json()).toMatchObject({
      fieldErrors: [
        {
          field: 'creditCard',
          fieldErrors: [{ field: 'number', code: '81724', message: 'Duplicate card exists in the vault.' }],
        },
      ],
    });
    expect((await gateway.customer.find(customerId)).creditCards).toHaveLength(1);
  });

  it('answers a failed verification with `verification` (processor_declined 2000), and 81736 when the CVV rule rejects', async () => {
    const { customerId, token } = await customerToken({ verifyCard: true });
    const declined = await saveCard(token, { number: '5105105105105100' });
    expect(declined.status).toBe(422);
    const declinedBody = (await declined.json()) as Record<string, unknown>;
    expect(declinedBody).toMatchObject({
      error: { message: 'Do Not Honor', code: 'verification_failed' },
      verification: { status: 'processor_declined', processorResponseCode: '2000', gatewayRejectionReason: null },
    });
    expect(declinedBody).not.toHaveProperty('fieldErrors');

    const cvv = await saveCard(token, { number: '4111111111111111', cvv: '200' });
    expect(await cvv.json()).toMatchObject({
      error: { code: 'verification_failed' },
      fieldErrors: [{ field: 'creditCard', fieldErrors: [{ field: 'cvv', code: '81736' }] }],
      verification: { status: 'gateway_rejected', gatewayRejectionReason: 'cvv', cvvResponseCode: 'N' },
    });
    expect((await gateway.customer.find(customerId)).creditCards).toEqual([]);
  });

  it('refuses to save for a guest token (403); without validate the card is only tokenized', async () => {
    const guest = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
    expect((await saveCard(guest, { number: '4111111111111111' })).status).toBe(403);
    const { customerId, token } = await customerToken();
    expect((await saveCard(token, { number: '4111111111111111' }, false)).status).toBe(201);
    expect((await gateway.customer.find(customerId)).creditCards).toEqual([]);
  });
});
