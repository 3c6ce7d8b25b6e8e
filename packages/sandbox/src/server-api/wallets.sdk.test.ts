import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Sandbox } from '../index.ts';
import { startSandboxWithClient } from '../testing/sandbox.ts';

// The wallet fake nonces through the official SDK: paymentInstrumentType and each wallet's details as it parses them.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  ({ sandbox, gateway } = await startSandboxWithClient());
});
afterAll(async () => {
  await sandbox.close();
});

/** The wallet details the SDK sets; @types/braintree declares some of them only loosely. */
type WalletTransaction = braintree.Transaction & {
  paypalAccount?: Record<string, unknown>;
  venmoAccount?: Record<string, unknown>;
  applePayCard?: Record<string, unknown>;
  androidPayCard?: Record<string, unknown>;
};

async function sale(paymentMethodNonce: string): Promise<WalletTransaction> {
  const result = await gateway.transaction.sale({ amount: '15.00', paymentMethodNonce, options: { submitForSettlement: true } });
  expect(result.success).toBe(true);
  expect(result.transaction.status).toBe('submitted_for_settlement');
  // find answers the same.
  const found = (await gateway.transaction.find(result.transaction.id)) as WalletTransaction;
  expect(found.paymentInstrumentType).toBe(result.transaction.paymentInstrumentType);
  return result.transaction as WalletTransaction;
}

describe('wallet fake nonces', () => {
  it('fake-paypal-one-time-nonce: a PayPal account with the payer and a payment id', async () => {
    const transaction = await sale('fake-paypal-one-time-nonce');
    expect(transaction.paymentInstrumentType).toBe('paypal_account');
    expect(transaction.paypalAccount).toMatchObject({
      payerEmail: 'shopper@paypal.example',
      payerFirstName: 'Pat',
      payerLastName: 'Payer',
      payerId: expect.stringMatching(/^[0-9A-F]{13}$/),
      paymentId: expect.stringMatching(/^PAYID-/),
      billingAgreementId: null,
    });
    expect(transaction.creditCard?.last4).toBeNull();
  });

  it('fake-paypal-billing-agreement-nonce: a billing agreement instead of a payment id', async () => {
    const transaction = await sale('fake-paypal-billing-agreement-nonce');
    expect(transaction.paymentInstrumentType).toBe('paypal_account');
    expect(transaction.paypalAccount).toMatchObject({ billingAgreementId: expect.stringMatching(/^B-/), paymentId: null });
  });

  it('fake-venmo-account-nonce: a Venmo account with its username', async () => {
    const transaction = await sale('fake-venmo-account-nonce');
    expect(transaction.paymentInstrumentType).toBe('venmo_account');
    expect(transaction.venmoAccount).toMatchObject({ username: 'venmojoe', venmoUserId: expect.any(String) });
  });

  it.each([
    ['visa', 'Apple Pay - Visa', '1111'],
    ['mastercard', 'Apple Pay - MasterCard', '4444'],
    ['amex', 'Apple Pay - American Express', '0005'],
  ])('fake-apple-pay-%s-nonce: an Apple Pay card', async (brand, cardType, last4) => {
    const transaction = await sale(`fake-apple-pay-${brand}-nonce`);
    expect(transaction.paymentInstrumentType).toBe('apple_pay_card');
    expect(transaction.applePayCard).toMatchObject({ cardType, last4, paymentInstrumentName: expect.stringContaining(last4) });
  });

  it.each([
    ['visa', 'Visa', '1111'],
    ['mastercard', 'MasterCard', '4444'],
    ['amex', 'American Express', '0005'],
    ['discover', 'Discover', '1117'],
  ])('fake-android-pay-%s-nonce: a Google Pay card (a network token)', async (brand, sourceCardType, sourceCardLast4) => {
    const transaction = await sale(`fake-android-pay-${brand}-nonce`);
    expect(transaction.paymentInstrumentType).toBe('android_pay_card');
    expect(transaction.androidPayCard).toMatchObject({
      sourceCardType,
      sourceCardLast4,
      virtualCardLast4: expect.stringMatching(/^\d{4}$/),
      isNetworkTokenized: true,
    });
  });

  it('a card nonce stays a credit_card', async () => {
    const transaction = await sale('fake-valid-visa-nonce');
    expect(transaction.paymentInstrumentType).toBe('credit_card');
    expect(transaction.creditCard?.last4).toBe('1881');
  });
});
