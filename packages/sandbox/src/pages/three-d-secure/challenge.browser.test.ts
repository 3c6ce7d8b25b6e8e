import type braintree from 'braintree';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../index.ts';
import type { Sandbox } from '../../index.ts';
import { launchChromium, startMerchantPage } from '../../testing/browser.ts';
import type { MerchantPage } from '../../testing/browser.ts';
import { decodeClientToken, gatewayFor } from '../../testing/sandbox.ts';
import type { ClientToken } from '../../testing/sandbox.ts';

// The challenge page in a real Chromium, framed by a page on another origin as the checkout frames it: what the
// shopper sees and does (keyboard included), what the checkout is told, and that the strict CSP holds.

let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;
let token: ClientToken;
let browser: Browser;
let merchant: MerchantPage;

beforeAll(async () => {
  sandbox = await startSandbox({ merchantSettings: { threeDSecure: true } });
  gateway = gatewayFor(sandbox);
  token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
  [browser, merchant] = await Promise.all([launchChromium(), startMerchantPage()]);
});
afterAll(async () => {
  await Promise.all([browser?.close(), merchant?.close(), sandbox?.close()]);
});

/** A lookup for a fresh nonce of this card: the challenge id and page URL. */
async function challengeFor(number: string): Promise<{ challengeId: string; acsUrl: string }> {
  const post = async (url: string, body: unknown) =>
    (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })).json();
  const fingerprint = token.authorizationFingerprint;
  const year = new Date().getUTCFullYear() + 3;
  const tokenized = (await post(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    authorizationFingerprint: fingerprint,
    creditCard: { number, expirationDate: `01/${year}`, cvv: '123' },
  })) as { creditCards: Array<{ nonce: string }> };
  const nonce = tokenized.creditCards[0]?.nonce ?? '';
  const lookup = (await post(`${token.clientApiUrl}/v1/payment_methods/${nonce}/three_d_secure/lookup`, {
    authorizationFingerprint: fingerprint,
    amount: '42.50',
  })) as { lookup: { challengeId: string; acsUrl: string } };
  return lookup.lookup;
}

interface Received {
  origin: string;
  data: { type: string; challengeId: string; source: string };
}

interface Opened {
  page: Page;
  frame: Frame;
  challengeId: string;
  violations: string[];
  messages(): Promise<Received[]>;
}

async function openChallenge(number = '4000000000001091'): Promise<Opened> {
  const { challengeId, acsUrl } = await challengeFor(number);
  const page = await browser.newPage();
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  const src = `${acsUrl}#${encodeURIComponent(JSON.stringify({ challengeId, parentOrigin: merchant.origin }))}`;
  await page.goto(`${merchant.origin}/?frame=${encodeURIComponent(src)}`);
  const frame = page.frames().find((candidate) => candidate.url().startsWith(sandbox.origin));
  if (frame === undefined) throw new Error('challenge frame not found');
  const messages = (): Promise<Received[]> => page.evaluate(() => (window as unknown as { received: Received[] }).received);
  await expect.poll(async () => (await messages()).map((message) => message.data.type)).toContain('ready');
  return { page, frame, challengeId, violations, messages };
}

async function result(
  challengeId: string,
): Promise<{ status: number; body: { threeDSecureInfo?: { liabilityShifted: boolean; status: string } } }> {
  const response = await fetch(`${token.clientApiUrl}/v1/three_d_secure/challenges/${challengeId}/result`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint }),
  });
  return { status: response.status, body: (await response.json()) as never };
}

describe('the 3-D Secure challenge page in Chromium', () => {
  it('shows the payment, starts in the labelled code field, and 1234 completes it: the checkout is told, liability shifts', async () => {
    const { page, frame, challengeId, violations, messages } = await openChallenge();
    expect(await frame.getByRole('heading', { name: 'Confirm your payment' }).isVisible()).toBe(true);
    expect(await frame.locator('#summary').textContent()).toBe('Approve a payment of $42.50 with Visa ending in 1091.');
    const code = frame.getByLabel('One-time code');
    expect(await code.evaluate((input) => input === document.activeElement)).toBe(true);
    await code.fill('1234');
    await code.press('Enter');
    await expect.poll(async () => (await messages()).map((message) => message.data.type)).toEqual(['ready', 'complete']);
    const [, complete] = await messages();
    expect(complete).toEqual({
      origin: sandbox.origin,
      data: { source: 'kassa-three-d-secure', challengeId, type: 'complete' },
    });
    expect((await result(challengeId)).body.threeDSecureInfo).toMatchObject({
      liabilityShifted: true,
      status: 'authenticate_successful',
    });
    expect(violations).toEqual([]);
    await page.close();
  });

  it('an empty code is refused on the page, with the message announced and focus kept on the field', async () => {
    const { page, frame, messages } = await openChallenge();
    await frame.getByRole('button', { name: 'Submit' }).click();
    expect(await frame.getByRole('alert').textContent()).toBe('Enter the one-time code.');
    const code = frame.getByLabel('One-time code');
    expect(await code.getAttribute('aria-invalid')).toBe('true');
    expect(await code.evaluate((input) => input === document.activeElement)).toBe(true);
    expect((await messages()).map((message) => message.data.type)).toEqual(['ready']);
    await page.close();
  });

  it('Tab stays inside the page and Escape cancels: the checkout is told, there is no result', async () => {
    const { page, frame, challengeId, messages } = await openChallenge();
    const focused = () => frame.evaluate(() => document.activeElement?.id ?? '');
    const order: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      await page.keyboard.press('Tab');
      order.push(await focused());
    }
    expect(order).toEqual(['submit', 'cancel', 'code', 'submit']);
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('cancel');
    await page.keyboard.press('Escape');
    await expect.poll(async () => (await messages()).map((message) => message.data.type)).toEqual(['ready', 'cancelled']);
    expect((await result(challengeId)).status).toBe(422);
    await page.close();
  });

  it('the failure card fails even with 1234, and Cancel is a button the checkout hears', async () => {
    const failing = await openChallenge('4000000000001109');
    await failing.frame.getByLabel('One-time code').fill('1234');
    await failing.frame.getByRole('button', { name: 'Submit' }).click();
    await expect.poll(async () => (await failing.messages()).map((message) => message.data.type)).toContain('complete');
    expect((await result(failing.challengeId)).body.threeDSecureInfo).toMatchObject({
      liabilityShifted: false,
      status: 'authenticate_failed',
    });
    await failing.page.close();

    const cancelling = await openChallenge();
    await cancelling.frame.getByRole('button', { name: 'Cancel' }).click();
    await expect
      .poll(async () => (await cancelling.messages()).map((message) => message.data.type))
      .toEqual(['ready', 'cancelled']);
    await cancelling.page.close();
  });
});
