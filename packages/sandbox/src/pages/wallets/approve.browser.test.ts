import { setTimeout as delay } from 'node:timers/promises';
import type braintree from 'braintree';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../index.ts';
import type { Sandbox } from '../../index.ts';
import { launchChromium, startMerchantPage } from '../../testing/browser.ts';
import type { MerchantPage } from '../../testing/browser.ts';
import { decodeClientToken, gatewayFor } from '../../testing/sandbox.ts';
import type { ClientToken } from '../../testing/sandbox.ts';

// The wallets' approval page in Chromium, framed by another origin: approve yields a nonce of the wallet's type
// that the official SDK charges as that wallet; cancel and fail are told apart; a wallet turned off is refused.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let token: ClientToken;
let browser: Browser;
let merchant: MerchantPage;

beforeAll(async () => {
  sandbox = await startSandbox({ merchantSettings: { wallets: ['paypal', 'venmo', 'apple_pay', 'google_pay'] } });
  gateway = gatewayFor(sandbox);
  token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
  [browser, merchant] = await Promise.all([launchChromium(), startMerchantPage()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), merchant?.close(), sandbox?.close()]);
});

const post = (url: string, body: Record<string, unknown>) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint, ...body }),
  });

interface Received {
  data: { source: string; approvalId: string; type: string };
}

/**
 * `heldScriptMs`: the page's script (approve.js) arrives that much later, as on a loaded machine, and the button is
 * pressed as soon as it can be, not once the page shows the payment.
 */
async function approveIn(wallet: string, button: 'Approve' | 'Cancel' | 'Simulate a failure', heldScriptMs = 0) {
  const started = (await (await post(`${token.clientApiUrl}/v1/wallets/${wallet}/approvals`, { amount: '30.00' })).json()) as {
    approvalId: string;
    approvalUrl: string;
  };
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  if (heldScriptMs > 0) {
    await page.route('**/wallets/approve.js', async (route) => {
      await delay(heldScriptMs);
      await route.continue();
    });
  }
  const src = `${started.approvalUrl}#${encodeURIComponent(JSON.stringify({ approvalId: started.approvalId, parentOrigin: merchant.origin }))}`;
  // Not until the shop's page loads: its load waits for the framed page's script.
  await page.goto(`${merchant.origin}/?frame=${encodeURIComponent(src)}`, { waitUntil: 'domcontentloaded' });
  const frame = page.frameLocator('#sandbox-page');
  if (heldScriptMs === 0) await expect.poll(() => frame.locator('#summary').textContent()).toMatch(/^Pay \$30\.00 with /);
  await frame.getByRole('button', { name: button }).click();
  const summary = await frame.locator('#summary').textContent();
  const received = (): Promise<Received[]> => page.evaluate(() => (window as unknown as { received: Received[] }).received);
  await expect.poll(async () => (await received()).length).toBe(1);
  const [message] = await received();
  const done = await frame.locator('#status').textContent();
  await page.close();
  expect(violations).toEqual([]);
  const result = await post(`${token.clientApiUrl}/v1/wallets/approvals/${started.approvalId}/result`, {});
  return { summary, message: message?.data, approvalId: started.approvalId, result, done };
}

describe('wallet approval page', () => {
  it.each([
    ['paypal', 'PayPal', 'PayPalAccount', { email: 'shopper@paypal.example' }, 'paypal_account'],
    ['venmo', 'Venmo', 'VenmoAccount', { username: 'venmojoe' }, 'venmo_account'],
    ['apple_pay', 'Apple Pay', 'ApplePayCard', { cardType: 'Visa', lastFour: '1111' }, 'apple_pay_card'],
    ['google_pay', 'Google Pay', 'AndroidPayCard', { cardType: 'Visa', lastFour: '1111' }, 'android_pay_card'],
  ])('%s: Approve gives a %s nonce of type %s that charges as that wallet', async (wallet, name, type, details, instrument) => {
    const { summary, message, approvalId, result, done } = await approveIn(wallet, 'Approve');
    expect(summary).toBe(`Pay $30.00 with ${name}.`);
    expect(message).toEqual({ source: 'kassa-wallet', approvalId, type: 'approved' });
    // A phone that scanned the checkout's QR code keeps the page: it says the shopper is done.
    expect(done).toBe('Approved. You can go back to the checkout.');
    expect(result.status).toBe(201);
    const { paymentMethod } = (await result.json()) as {
      paymentMethod: { nonce: string; type: string; details: object; rawPaymentData?: object };
    };
    expect(paymentMethod).toMatchObject({ type, details });
    if (wallet === 'apple_pay' || wallet === 'google_pay') expect(paymentMethod.rawPaymentData).toBeDefined();
    const sale = await gateway.transaction.sale({ amount: '30.00', paymentMethodNonce: paymentMethod.nonce });
    expect(sale.transaction.paymentInstrumentType).toBe(instrument);
  });

  it('Cancel and Simulate a failure are told apart; neither gives a nonce', async () => {
    const cancelled = await approveIn('paypal', 'Cancel');
    expect(cancelled.message?.type).toBe('cancelled');
    expect(cancelled.done).toBe('Cancelled. You can go back to the checkout.');
    expect(cancelled.result.status).toBe(422);
    const failed = await approveIn('venmo', 'Simulate a failure');
    expect(failed.message?.type).toBe('failed');
    expect(((await failed.result.json()) as { error: { message: string } }).error.message).toBe('The wallet payment failed.');
  });

  it.each([
    ['Approve', 'approved', 'Approved.'],
    ['Cancel', 'cancelled', 'Cancelled.'],
    ['Simulate a failure', 'failed', 'The payment failed.'],
  ] as const)("%s pressed while the page's script is still on its way is not lost: it answers %s", async (button, type, said) => {
    const { message, summary, done } = await approveIn('google_pay', button, 1_000);
    expect(message?.type).toBe(type);
    expect(done).toBe(`${said} You can go back to the checkout.`);
    // Approve and the failure wait until the page shows the payment; Cancel may come first.
    if (button !== 'Cancel') expect(summary).toBe('Pay $30.00 with Google Pay.');
  });

  it('a wallet the merchant has not turned on is refused (422)', async () => {
    sandbox.settings.update({ wallets: ['paypal'] });
    try {
      const response = await post(`${token.clientApiUrl}/v1/wallets/venmo/approvals`, { amount: '30.00' });
      expect(response.status).toBe(422);
      expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
        'This wallet is not enabled for this merchant account.',
      );
    } finally {
      sandbox.settings.reset();
    }
  });
});
