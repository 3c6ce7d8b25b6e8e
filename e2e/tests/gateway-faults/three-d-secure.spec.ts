import { expect, test, type Page } from '@playwright/test';
import { recordedPayment } from '../../support/admin-api.ts';
import { verifyWithBraintreeWeb } from '../../support/braintree-web-page.ts';
import { CheckoutSheet } from '../../support/checkout-sheet.ts';
import { transactionDeviceData } from '../../support/gateway-records.ts';
import {
  clientTokenForNewOrder,
  integratorErrors,
  integratorEvents,
  openIntegratorPage,
  requestPaymentMethod,
} from '../../support/integrator-page.ts';
import { changeSandboxSettings, resetSandboxSettings } from '../../support/sandbox-settings.ts';
import { cards, Shopper, uniqueEmail, type TestCard } from '../../support/shopper.ts';
import { axeOn } from '../../support/axe.ts';

// 3-D Secure 2 with the provider's test cards (gateway.md) against the sandbox, the merchant setting turned on: the
// checkout's lookup, the issuer's challenge in its dialog, and the outcome the server recorded on the payment (read
// as the merchant reads it, through the admin API). Under gateway-faults/: merchant settings apply to the whole product.
test.beforeEach(async () => {
  await changeSandboxSettings({ threeDSecure: true });
});
test.afterEach(async () => {
  await resetSandboxSettings();
});

const card = (number: string): TestCard => ({ ...cards.visa, number });
const FAILED = 'Something went wrong during 3D Secure authentication. Please try again.';

function orderIdOf(page: Page): string {
  return /\/checkout\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
}

async function startPaying(page: Page, number: string): Promise<{ shopper: Shopper; sheet: CheckoutSheet; orderId: string }> {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  const orderId = orderIdOf(page);
  await shopper.payWithCard(card(number));
  return { shopper, sheet: new CheckoutSheet(page), orderId };
}

/** This Chromium's screen, language and time zone, as EMV 3-D Secure 2's browser data names them. */
function thisBrowser(page: Page) {
  return page.evaluate(() => ({
    colorDepth: screen.colorDepth,
    language: navigator.language,
    screenHeight: screen.height,
    screenWidth: screen.width,
    timeZone: new Date().getTimezoneOffset(),
  }));
}

/**
 * The gateway kept, with the payment's 3-D Secure result, this browser as the checkout's lookup described it: the
 * EMV 3-D Secure 2 browser data (screen, language, time zone) that braintree-web sends with `collectDeviceData`.
 */
async function lookupCarriedThisBrowser(page: Page, transactionId: string | null): Promise<void> {
  const browser = await thisBrowser(page);
  const { threeDSecureBrowser } = await transactionDeviceData(transactionId ?? 'none');
  expect(threeDSecureBrowser).toEqual({ ...browser, deviceChannel: 'Browser', javaEnabled: false, javascriptEnabled: true });
}

function challenge(page: Page) {
  return page.frameLocator('iframe[name="kassa-three-d-secure"]');
}

/**
 * Escape in the challenge, released once the challenge is gone: the page cancels on the key going down, and a key-up
 * sent while Chromium tears down the challenge's frame (then another process: support/chromium.ts) can go unanswered, leaving Playwright's press
 * waiting for good (seen 1 time in 8).
 */
async function escapeTheChallenge(page: Page): Promise<void> {
  await page.keyboard.down('Escape');
  await expect(page.locator('iframe[name="kassa-three-d-secure"]')).toHaveCount(0);
  await page.keyboard.up('Escape');
}

const passes = [
  { name: 'frictionless success', number: '4000000000002701', status: 'authenticate_successful', shifted: true, possible: true },
  { name: 'attempted', number: '4000000000002719', status: 'authenticate_attempt_successful', shifted: true, possible: true },
  { name: 'unavailable', number: '4000000000002313', status: 'authentication_unavailable', shifted: false, possible: false },
] as const;
for (const { name, number, status, shifted, possible } of passes) {
  test(`${name} (${number}): paid without a challenge, the payment records ${status}, shifted ${shifted}, possible ${possible}`, async ({
    page,
  }) => {
    const { shopper } = await startPaying(page, number);
    const orderId = await shopper.seesReceipt();
    const payment = await recordedPayment(page, orderId);
    expect(payment).toMatchObject({
      paymentMethodType: 'credit_card',
      threeDSecure: { status, liabilityShifted: shifted, liabilityShiftPossible: possible },
    });
    await lookupCarriedThisBrowser(page, payment.transactionId);
  });
}

const failures = [
  { name: 'frictionless failure', number: '4000000000002925' },
  { name: 'lookup error', number: '4000000000001125' },
  { name: 'lookup time-out', number: '4000000000001075' },
] as const;
test(`${failures.map(({ name, number }) => `${name} (${number})`).join(', ')}, one after another in one checkout: each time the checkout says so, clears the card, and nothing is charged`, async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.startCheckoutOfNewOrder();
  const orderId = orderIdOf(page);
  for (const { number } of failures) {
    // This attempt's lookup answered, then the card cleared: the message of the one before may still show until then.
    const lookedUp = page.waitForResponse((response) => response.url().endsWith('/three_d_secure/lookup'));
    await shopper.payWithCard(card(number));
    await lookedUp;
    await expect(shopper.field('number')).toHaveValue('');
    await expect(sheet.message()).toHaveText(FAILED);
    await expect(sheet.message()).toBeFocused();
    await expect(shopper.payButton()).toBeEnabled();
    const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as {
      order: { status: string; payments: unknown[] };
    };
    expect(order).toMatchObject({ status: 'pending', payments: [] });
  }
});

test('a saved card goes through 3-D Secure too: paying the next order with the saved challenge card (4000000000001091) opens the challenge, and 1234 pays with the shift recorded', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await shopper.signUpThroughApi('Tess Saved', uniqueEmail('tess'), 'three-d-secure-saved-1');
  await shopper.savesCardAtGateway(card('4000000000001091'));
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithSavedCard('Visa ending in 1091');
  await expect(page.getByRole('dialog', { name: 'Confirm your card' })).toBeVisible();
  await challenge(page).getByLabel('One-time code').fill('1234');
  await challenge(page).getByRole('button', { name: 'Submit' }).click();
  const orderId = await shopper.seesReceipt();
  expect(await recordedPayment(page, orderId)).toMatchObject({
    paymentMethodType: 'credit_card',
    threeDSecure: { status: 'authenticate_successful', liabilityShifted: true, liabilityShiftPossible: true },
  });
});

test('challenge failed (4000000000001109): the dialog closes, the message shows and nothing is charged', async ({ page }) => {
  const { sheet, orderId } = await startPaying(page, '4000000000001109');
  await challenge(page).getByLabel('One-time code').fill('1234');
  await challenge(page).getByRole('button', { name: 'Submit' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(sheet.message()).toHaveText(FAILED);
  const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: { payments: unknown[] } };
  expect(order.payments).toEqual([]);
});

test('challenge (4000000000001091) cancelled with Escape: nothing is shown, focus returns to Pay, the card stays and Pay asks again; passed with 1234: the dialog holds the issuer page, then the payment records the shift', async ({
  page,
}) => {
  const { shopper, sheet } = await startPaying(page, '4000000000001091');
  const dialog = page.getByRole('dialog', { name: 'Confirm your card' });
  const code = challenge(page).getByLabel('One-time code');
  await expect(code).toBeFocused();
  await escapeTheChallenge(page);
  await expect(dialog).toHaveCount(0);
  await expect(sheet.message()).toHaveText('');
  await expect(page.locator('.payment-feedback')).toHaveText('');
  await expect(shopper.payButton()).toBeFocused();
  await expect(shopper.field('number')).not.toHaveValue('');
  await shopper.pay();
  await expect(dialog).toBeVisible();

  await expect(code).toBeFocused();
  await page.screenshot({ path: test.info().outputPath('three-d-secure-challenge.png') });
  const axe = await axeOn(page).include('[data-kassa-challenge]').analyze();
  expect(axe.violations).toEqual([]);
  await code.fill('1234');
  await challenge(page).getByRole('button', { name: 'Submit' }).click();
  await expect(dialog).toHaveCount(0);
  const orderId = await shopper.seesReceipt();
  const payment = await recordedPayment(page, orderId);
  expect(payment.threeDSecure).toEqual({
    status: 'authenticate_successful',
    liabilityShifted: true,
    liabilityShiftPossible: true,
  });
  await lookupCarriedThisBrowser(page, payment.transactionId);
});

test('on an integrator\'s page, a cancelled challenge: the 3-D Secure events in order, and the request rejects "The card check was cancelled…"', async ({
  page,
}) => {
  await openIntegratorPage(page, {
    authorization: await clientTokenForNewOrder(page),
    options: { threeDSecure: { amount: '12.00' } },
  });
  await new CheckoutSheet(page).seesState('ready');
  await new Shopper(page).enterCard(card('4000000000001091'));
  const outcome = requestPaymentMethod(page);
  await expect(challenge(page).getByLabel('One-time code')).toBeFocused();
  await escapeTheChallenge(page);
  expect(await outcome).toEqual([
    { ok: false, code: 'three_d_secure_canceled', message: 'The card check was cancelled. Press Pay to try again.' },
  ]);
  const names = (await integratorEvents(page)).map((event) => event.name).filter((name) => name.startsWith('threeDSecure:'));
  expect(names).toEqual([
    'threeDSecure:authentication-modal-render',
    'threeDSecure:authentication-modal-close',
    'threeDSecure:customer-canceled',
  ]);
});

test("on an integrator's page, a challenge (4000000000001091) whose dialog's code stalls: at the parts' time limit the check is given up, the sheet says \"The payment form cannot start. Reload the page…\" with no Try again, the request and onError say network", async ({
  page,
}) => {
  await page.clock.install();
  // The network holds the challenge dialog's code (imported on demand as the challenge comes): no answer, no failure.
  await openIntegratorPage(
    page,
    { authorization: await clientTokenForNewOrder(page), options: { threeDSecure: { amount: '12.00' } } },
    { stalling: /^challenge-modal-/ },
  );
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await new Shopper(page).enterCard(card('4000000000001091'));
  const asked = page.waitForRequest(/\/__integrator\/challenge-modal-/);
  const outcome = requestPaymentMethod(page);
  await asked;
  await expect(page.getByRole('dialog')).toHaveCount(0);
  // Meanwhile the sheet shows the payment under way (the page's button is the integrator's own, and says nothing).
  await expect(sheet.status()).toHaveText('Processing your payment…');
  await expect(sheet.status()).toBeVisible();
  // Its time limit (OPTION_LOAD_TIMEOUT_MS, runtime/in-time.ts, from the dialog's first render), run forward on the
  // page's clock; then as when it fails to download (views/on-demand.ts's onDemand).
  await page.clock.fastForward(20_000);
  const cannotStart = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
  expect(await outcome).toEqual([{ ok: false, code: 'network', message: cannotStart }]);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test.describe("the real provider's client, braintree-web as npm ships it, against the sandbox", () => {
  // Its requests go to the provider's https origin, which the page's Content-Security-Policy (the shop's) does not
  // list: the page is a merchant's using the real provider, whose policy would.
  test.use({ bypassCSP: true });

  test("a frictionless card (4000000000002701): braintree-web's lookup carries this browser's data, the sandbox takes it and shifts the liability", async ({
    page,
  }) => {
    const clientToken = await clientTokenForNewOrder(page);
    const { clientApiUrl, authorizationFingerprint } = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as {
      clientApiUrl: string;
      authorizationFingerprint: string;
    };
    const tokenized = await page.request.post(`${clientApiUrl}/v1/payment_methods/credit_cards`, {
      data: {
        authorizationFingerprint,
        creditCard: { number: '4000000000002701', expirationDate: cards.visa.expiry, cvv: '123' },
      },
    });
    expect(tokenized.status()).toBe(201);
    const { creditCards } = (await tokenized.json()) as { creditCards: { nonce: string }[] };
    const { outcome, lookups } = await verifyWithBraintreeWeb(page, clientToken, creditCards[0]?.nonce ?? '', '400000', '12.00');
    expect(outcome).toMatchObject({ kind: 'result', result: { liabilityShifted: true, liabilityShiftPossible: true } });
    const browser = await thisBrowser(page);
    // collectDeviceData: true (braintree-provider.ts): braintree-web adds the browser's fields to the lookup.
    expect(lookups).toEqual([
      expect.objectContaining({
        amount: '12.00',
        browserColorDepth: browser.colorDepth,
        browserLanguage: browser.language,
        browserScreenHeight: browser.screenHeight,
        browserScreenWidth: browser.screenWidth,
        browserTimeZone: browser.timeZone,
        browserJavaEnabled: false,
        browserJavascriptEnabled: true,
        deviceChannel: 'Browser',
      }),
    ]);
  });
});
