import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';
import { decodeClientToken, errorCodes, gatewayFor } from '../testing/sandbox.ts';
import type { ClientToken } from '../testing/sandbox.ts';

// Saved wallets through the OFFICIAL SDK: paymentMethod.create with the provider's wallet fake nonces and with the
// nonces the sandbox's approval page hands out, customer.find's lists (paypalAccounts, venmoAccounts, applePayCards,
// androidPayCards) as the SDK parses them, paymentMethod.find / delete, sales with a saved wallet, and the client
// API's saved-methods list for the customer's checkout.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  sandbox = await startSandbox({ merchantSettings: { wallets: ['paypal', 'venmo', 'apple_pay', 'google_pay'] } });
  gateway = gatewayFor(sandbox);
});
afterAll(async () => {
  await sandbox.close();
});

/** The SDK's wallet classes, whose fields @types/braintree declares loosely or not at all. */
type Saved = Record<string, unknown> & { token: string; default: boolean; customerId: string };
type WalletCustomer = braintree.Customer & {
  paypalAccounts?: Saved[];
  venmoAccounts?: Saved[];
  applePayCards?: Saved[];
  androidPayCards?: Saved[];
};
type WalletTransaction = braintree.Transaction & Record<'paypalAccount' | 'venmoAccount', Record<string, unknown>>;

async function newCustomer(): Promise<string> {
  return (await gateway.customer.create({ firstName: 'Wanda', lastName: 'Wallet' })).customer.id;
}

async function save(customerId: string, paymentMethodNonce: string): Promise<Saved & { constructor: { name: string } }> {
  const result = await gateway.paymentMethod.create({ customerId, paymentMethodNonce, options: { verifyCard: true } });
  expect(result.success, result.success ? '' : result.message).toBe(true);
  return result.paymentMethod as unknown as Saved & { constructor: { name: string } };
}

async function customerToken(customerId: string): Promise<ClientToken> {
  return decodeClientToken((await gateway.clientToken.generate({ customerId })).clientToken);
}

async function post(url: string, token: ClientToken, body: Record<string, unknown>): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint, ...body }),
  });
}

/** The sandbox's approval page, played over HTTP: start, approve, and the approved nonce. */
async function approvedNonce(token: ClientToken, wallet: string, body: Record<string, unknown>): Promise<string> {
  const started = (await (await post(`${token.clientApiUrl}/v1/wallets/${wallet}/approvals`, token, body)).json()) as {
    approvalId: string;
  };
  const decided = await fetch(`${sandbox.origin}/wallets/approvals/${started.approvalId}/approve`, { method: 'POST' });
  expect(decided.status).toBe(200);
  const result = await post(`${token.clientApiUrl}/v1/wallets/approvals/${started.approvalId}/result`, token, {});
  expect(result.status).toBe(201);
  return ((await result.json()) as { paymentMethod: { nonce: string } }).paymentMethod.nonce;
}

describe('paymentMethod.create with wallet fake nonces, then customer.find', () => {
  it("saves each wallet in its own list with the account's details; the first saved is the default", async () => {
    const customerId = await newCustomer();
    const paypal = await save(customerId, 'fake-paypal-billing-agreement-nonce');
    const venmo = await save(customerId, 'fake-venmo-account-nonce');
    const applePay = await save(customerId, 'fake-apple-pay-visa-nonce');
    const googlePay = await save(customerId, 'fake-android-pay-mastercard-nonce');
    expect(paypal.constructor.name).toBe('PayPalAccount');
    expect(paypal).toMatchObject({
      email: 'shopper@paypal.example',
      billingAgreementId: expect.stringMatching(/^B-/),
      customerId,
    });
    expect(venmo.constructor.name).toBe('VenmoAccount');
    expect(venmo).toMatchObject({ username: 'venmojoe', venmoUserId: expect.any(String), default: false });
    expect(applePay.constructor.name).toBe('ApplePayCard');
    expect(applePay).toMatchObject({ cardType: 'Apple Pay - Visa', last4: '1111', paymentInstrumentName: 'Visa 1111' });
    expect(googlePay.constructor.name).toBe('AndroidPayCard');
    expect(googlePay).toMatchObject({ sourceCardType: 'MasterCard', sourceCardLast4: '4444', isNetworkTokenized: true });

    const found = (await gateway.customer.find(customerId)) as WalletCustomer;
    expect(found.creditCards ?? []).toEqual([]);
    expect(found.paypalAccounts?.map((m) => [m.token, m.email, m.default])).toEqual([
      [paypal.token, 'shopper@paypal.example', true],
    ]);
    expect(found.venmoAccounts?.map((m) => [m.token, m.username, m.default])).toEqual([[venmo.token, 'venmojoe', false]]);
    expect(found.applePayCards?.map((m) => [m.token, m.cardType, m.last4])).toEqual([
      [applePay.token, 'Apple Pay - Visa', '1111'],
    ]);
    expect(found.androidPayCards?.map((m) => [m.token, m.sourceCardLast4])).toEqual([[googlePay.token, '4444']]);
    expect(found.paymentMethods).toHaveLength(4);

    // paymentMethod.find answers each by its own class; delete removes it, and the next one becomes the default.
    const one = (await gateway.paymentMethod.find(venmo.token)) as unknown as Saved;
    expect(one.constructor.name).toBe('VenmoAccount');
    await gateway.paymentMethod.delete(paypal.token);
    await expect(gateway.paymentMethod.find(paypal.token)).rejects.toMatchObject({ type: 'notFoundError' });
    const after = (await gateway.customer.find(customerId)) as WalletCustomer;
    expect(after.paypalAccounts ?? []).toEqual([]);
    expect(after.venmoAccounts?.[0]?.default).toBe(true);
  });

  it('refuses a one-time PayPal payment (82902), as the provider does: only a billing agreement can be saved', async () => {
    const customerId = await newCustomer();
    const result = await gateway.paymentMethod.create({ customerId, paymentMethodNonce: 'fake-paypal-one-time-nonce' });
    expect(result.success).toBe(false);
    expect(errorCodes(result)).toEqual(['82902']);
    const sale = await gateway.transaction.sale({
      amount: '5.00',
      paymentMethodNonce: 'fake-paypal-one-time-nonce',
      customerId,
      options: { storeInVaultOnSuccess: true },
    });
    expect(sale.success).toBe(false);
    expect(errorCodes(sale)).toEqual(['82902']);
  });

  it('a card saved after a wallet whose card has the same number is not a duplicate', async () => {
    const customerId = await newCustomer();
    await save(customerId, 'fake-paypal-billing-agreement-nonce');
    const card = await gateway.paymentMethod.create({
      customerId,
      paymentMethodNonce: 'fake-valid-nonce',
      options: { failOnDuplicatePaymentMethod: true },
    });
    expect(card.success).toBe(true);
  });
});

describe('paying with a saved wallet', () => {
  it('a sale by token and a sale with paymentMethodNonce.create both charge the wallet, with its token', async () => {
    const customerId = await newCustomer();
    const paypal = await save(customerId, 'fake-paypal-billing-agreement-nonce');
    const byToken = await gateway.transaction.sale({ amount: '12.00', paymentMethodToken: paypal.token });
    expect(byToken.success).toBe(true);
    const paid = byToken.transaction as WalletTransaction;
    expect(paid.paymentInstrumentType).toBe('paypal_account');
    expect(paid.paypalAccount).toMatchObject({ token: paypal.token, payerEmail: 'shopper@paypal.example' });
    expect(paid.customer?.id).toBe(customerId);

    const venmo = await save(customerId, 'fake-venmo-account-nonce');
    const nonce = await gateway.paymentMethodNonce.create(venmo.token);
    // The nonce says what it pays with (so that a server's card rules leave a wallet alone), as the provider's does.
    expect(nonce.paymentMethodNonce).toMatchObject({ type: 'VenmoAccount', details: { username: 'venmojoe' } });
    const described = await gateway.paymentMethodNonce.find('fake-paypal-one-time-nonce');
    expect(described).toMatchObject({ type: 'PayPalAccount', details: { email: 'shopper@paypal.example' } });
    const byNonce = await gateway.transaction.sale({ amount: '13.00', paymentMethodNonce: nonce.paymentMethodNonce.nonce });
    expect(byNonce.success).toBe(true);
    expect((byNonce.transaction as WalletTransaction).venmoAccount).toMatchObject({ token: venmo.token, username: 'venmojoe' });
  });

  it('a subscription paid by a saved PayPal account charges the account (paypal_account), as on the provider', async () => {
    const customerId = await newCustomer();
    const paypal = await save(customerId, 'fake-paypal-billing-agreement-nonce');
    const created = await gateway.subscription.create({ paymentMethodToken: paypal.token, planId: 'coffee-monthly' });
    expect(created.success).toBe(true);
    const [charge] = created.subscription.transactions ?? [];
    expect(charge?.paymentInstrumentType).toBe('paypal_account');
    expect((charge as WalletTransaction | undefined)?.paypalAccount).toMatchObject({ token: paypal.token });
  });

  it('storeInVaultOnSuccess saves the wallet of a paid sale (an Apple Pay card) for the customer', async () => {
    const customerId = await newCustomer();
    const sale = await gateway.transaction.sale({
      amount: '14.00',
      paymentMethodNonce: 'fake-apple-pay-amex-nonce',
      customerId,
      options: { storeInVaultOnSuccess: true },
    });
    expect(sale.success).toBe(true);
    const found = (await gateway.customer.find(customerId)) as WalletCustomer;
    expect(found.applePayCards?.map((m) => [m.cardType, m.last4])).toEqual([['Apple Pay - American Express', '0005']]);
  });
});

describe("the sandbox's approved-wallet nonces", () => {
  it("saves PayPal's vault flow (no amount: a billing agreement), a Venmo account and Google Pay; PayPal's one-time nonce is refused", async () => {
    const customerId = await newCustomer();
    const token = await customerToken(customerId);
    const paypal = await save(customerId, await approvedNonce(token, 'paypal', { vault: true }));
    expect(paypal).toMatchObject({ email: 'shopper@paypal.example', billingAgreementId: expect.stringMatching(/^B-/) });
    await save(customerId, await approvedNonce(token, 'venmo', { amount: '10.00' }));
    await save(customerId, await approvedNonce(token, 'google_pay', { amount: '10.00' }));
    const oneTime = await approvedNonce(token, 'paypal', { amount: '10.00' });
    const refused = await gateway.paymentMethod.create({ customerId, paymentMethodNonce: oneTime });
    expect(errorCodes(refused)).toEqual(['82902']);

    // The customer's checkout lists them with their type and account, each under a fresh single-use nonce.
    const listed = await fetch(
      `${token.clientApiUrl}/v1/payment_methods?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
    );
    const { paymentMethods } = (await listed.json()) as {
      paymentMethods: Array<{ nonce: string; type: string; default: boolean; details: Record<string, unknown> }>;
    };
    expect(paymentMethods.map((m) => [m.type, m.default])).toEqual([
      ['PayPalAccount', true],
      ['VenmoAccount', false],
      ['AndroidPayCard', false],
    ]);
    expect(paymentMethods[0]?.details).toMatchObject({ email: 'shopper@paypal.example' });
    expect(paymentMethods[1]?.details).toMatchObject({ username: 'venmojoe' });
    expect(paymentMethods[2]?.details).toMatchObject({ cardType: 'Visa', lastFour: '1111' });

    // A listed nonce pays with the saved wallet; another listed one deletes it.
    const sale = await gateway.transaction.sale({ amount: '11.00', paymentMethodNonce: paymentMethods[0]?.nonce ?? '' });
    expect((sale.transaction as WalletTransaction).paypalAccount).toMatchObject({ token: paypal.token });
    const deleted = await fetch(
      `${token.clientApiUrl}/v1/payment_methods/${paymentMethods[1]?.nonce}?authorizationFingerprint=${encodeURIComponent(token.authorizationFingerprint)}`,
      { method: 'DELETE' },
    );
    expect(deleted.status).toBe(204);
    expect(((await gateway.customer.find(customerId)) as WalletCustomer).venmoAccounts ?? []).toEqual([]);
  });

  it('an approval without an amount is refused unless it is the vault flow', async () => {
    const token = await customerToken(await newCustomer());
    const response = await post(`${token.clientApiUrl}/v1/wallets/paypal/approvals`, token, {});
    expect(response.status).toBe(422);
  });
});
