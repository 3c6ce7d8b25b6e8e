import { expect, test } from '@playwright/test';
import { CheckoutSheet } from '../../support/checkout-sheet.ts';
import { clientTokenForNewOrder, openIntegratorPage, requestPaymentMethod } from '../../support/integrator-page.ts';
import { holdFrameMessages } from '../../support/held-frame-messages.ts';
import { clearSandboxFaults, injectSandboxFault } from '../../support/sandbox-faults.ts';
import { changeSandboxSettings, resetSandboxSettings } from '../../support/sandbox-settings.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// Each provider failure the checkout can meet, through the real frames and the sandbox's fault injection: the shopper
// reads a message that says what happened, and gets a retry where retrying helps.

// The product's time-outs, which the specs of a gateway that does not answer run forward on the page's clock
// (Playwright's page.clock, in every frame) instead of waiting them out (the rate-limited specs run the gateway's
// Retry-After so too): the checkout gives up on a gateway request after
// 15 s (GATEWAY_TIMEOUT_MS in packages/checkout/src/provider/gateway-failures.ts) and on card fields that do not load
// after 20 s (optionLoadTimeoutMs' default, runtime/checkout-runtime.ts); the card frame gives up on tokenization
// after 20 s (requestTimeoutMs' default, packages/sandbox/src/pages/hosted-fields/tokenize.ts), before the checkout's own
// 30 s bound on the frame's answer (fields/hosted-fields.ts).
const GATEWAY_TIMEOUT_MS = 15_000;
const CARD_FIELDS_LOAD_TIMEOUT_MS = 20_000;
const TOKENIZATION_TIMEOUT_MS = 20_000;

test.afterEach(async () => {
  await clearSandboxFaults();
  await resetSandboxSettings();
});

test.describe('loading the gateway configuration', () => {
  const cases = [
    {
      name: 'invalid authorization (401)',
      status: 401,
      message: 'This payment session is no longer valid. Reload the page to start again.',
      retry: false,
    },
    {
      name: 'insufficient privileges (403)',
      status: 403,
      message: 'This shop cannot take payments right now. Please contact the shop.',
      retry: false,
    },
    {
      name: 'a server error (503)',
      status: 503,
      message: 'The payment service is not available right now. Please try again.',
      retry: true,
    },
  ] as const;
  for (const { name, status, message, retry } of cases) {
    test(`${name}: "${message}"${retry ? ' and Try again loads the form' : ', no retry'}`, async ({ page }) => {
      await injectSandboxFault({ target: 'configuration', fault: { type: 'status', status } });
      const shopper = new Shopper(page);
      const sheet = new CheckoutSheet(page);
      await shopper.openCheckoutOfNewOrder();
      await sheet.seesState('error');
      await expect(sheet.message()).toHaveText(message);
      const tryAgain = sheet.root().getByRole('button', { name: 'Try again' });
      if (!retry) {
        await expect(tryAgain).toHaveCount(0);
        return;
      }
      await tryAgain.click();
      await sheet.seesState('ready');
      await expect(sheet.message()).toHaveText('');
    });
  }

  test('rate limited (429): says so and loads by itself once Retry-After has passed', async ({ page }) => {
    await injectSandboxFault({ target: 'configuration', fault: { type: 'status', status: 429, retryAfter: 2 } });
    await page.clock.install();
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.openCheckoutOfNewOrder();
    await expect(sheet.message()).toHaveText('The payment service is busy right now. Please wait a moment and try again.');
    await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
    await page.clock.runFor(2_000);
    await sheet.seesState('ready');
  });

  test('cannot contact the gateway (dropped connection): "Network error. Please try again." and a retry', async ({ page }) => {
    // Every configuration request is dropped until the retry: Chromium sends a request again by itself when a reused
    // keep-alive connection closes without an answer (the frames' files came first over it), so one drop may not reach
    // the checkout.
    await injectSandboxFault({ target: 'configuration', fault: { type: 'drop' }, share: 1 });
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.openCheckoutOfNewOrder();
    await expect(sheet.message()).toHaveText('Network error. Please try again.');
    await clearSandboxFaults();
    await sheet.root().getByRole('button', { name: 'Try again' }).click();
    await sheet.seesState('ready');
  });

  test('a gateway that never answers: the form stops loading with "request timed out" and a retry', async ({ page }) => {
    await injectSandboxFault({ target: 'configuration', fault: { type: 'timeout' } });
    await page.clock.install();
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    const asked = page.waitForRequest(/\/client_api\/v1\/configuration/);
    await shopper.openCheckoutOfNewOrder();
    await asked;
    await sheet.seesState('loading');
    await page.clock.fastForward(GATEWAY_TIMEOUT_MS);
    await expect(sheet.message()).toHaveText('The payment service took too long to answer. Please try again.');
    await sheet.root().getByRole('button', { name: 'Try again' }).click();
    await sheet.seesState('ready');
  });

  test('Try again after a gateway that did not answer: the form stays loading until its new frames are ready, not opened by the first ones', async ({
    page,
  }) => {
    // The postal code goes once the configuration has arrived: what shows the checkout has it. The frames' messages
    // reach the page 1 s late (support/held-frame-messages.ts): the new frames' `ready` long after the configuration.
    await changeSandboxSettings({ challenges: ['cvv'] });
    await holdFrameMessages(page, 1_000);
    await injectSandboxFault({ target: 'configuration', fault: { type: 'timeout' } });
    await page.clock.install();
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.openCheckoutOfNewOrder();
    // The other frames are put in once the number's is ready: the first frames were ready before the failure.
    await expect(page.locator('iframe[name="kassa-field-cvv"]')).toHaveCount(1);
    await page.clock.fastForward(GATEWAY_TIMEOUT_MS);
    await expect(sheet.message()).toHaveText('The payment service took too long to answer. Please try again.');
    await sheet.root().getByRole('button', { name: 'Try again' }).click();
    await expect(sheet.root().getByText('Postal code')).toHaveCount(0);
    await expect(sheet.root().getByText('Loading the payment form…')).toBeVisible();
    await expect(sheet.root().locator('.kassa-card')).toHaveAttribute('inert');
    await sheet.seesState('ready');
    await expect(sheet.root().locator('.kassa-card')).not.toHaveAttribute('inert');
  });

  test('the card fields cannot load: "All payment options failed to load." and a retry', async ({ page }) => {
    // Every frame request fails until the retry; the card was the only way to pay.
    await injectSandboxFault({ target: 'pages', path: 'hosted-fields', fault: { type: 'status', status: 503 }, share: 1 });
    await page.clock.install();
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    const refused = page.waitForResponse((response) => response.url().includes('/hosted-fields/') && response.status() === 503);
    // The number's frame is requested beside the configuration, not after it: run the clock forward only once the
    // configuration has answered, or its own 15 s time-out fires first ("took too long", as one run met).
    const configured = page.waitForResponse((response) => response.url().includes('/client_api/v1/configuration'));
    await shopper.openCheckoutOfNewOrder();
    await refused;
    await (await configured).finished();
    await page.clock.fastForward(CARD_FIELDS_LOAD_TIMEOUT_MS);
    await expect(sheet.message()).toHaveText('All payment options failed to load.');
    await clearSandboxFaults();
    await sheet.root().getByRole('button', { name: 'Try again' }).click();
    await sheet.seesState('ready');
  });
});

test.describe('sending the card', () => {
  async function cardTyped(page: import('@playwright/test').Page) {
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.startCheckoutOfNewOrder();
    await shopper.enterCard(cards.visa);
    return { shopper, sheet };
  }

  test('cannot contact the gateway: the message takes focus, and Pay again pays without retyping the card', async ({ page }) => {
    const { shopper, sheet } = await cardTyped(page);
    // Every attempt dropped (Chromium resends a request once when a reused connection drops) until the network is back.
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'drop' }, share: 1 });
    await shopper.pay();
    await expect(sheet.message()).toHaveText('Network error. Please try again.');
    await expect.poll(() => sheet.focusedField()).toBe('alert');
    await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
    await clearSandboxFaults();
    await shopper.pay();
    await shopper.seesReceipt();
  });

  test('rate limited (429): says so, refuses Pay before the wait is over, and Pay works after it', async ({ page }) => {
    await page.clock.install();
    const { shopper, sheet } = await cardTyped(page);
    // The fault answers one request: a Pay that reached the gateway again would pay.
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'status', status: 429, retryAfter: 5 } });
    await shopper.pay();
    const busy = 'The payment service is busy right now. Please wait a moment and try again.';
    await expect(sheet.message()).toHaveText(busy);
    // Before the gateway's Retry-After (5 s, on a clock that runs on meanwhile: room for a slow run) has passed, Pay is
    // refused without calling the gateway: the button is ready again at once, the message stays, no receipt.
    await shopper.pay();
    await expect(shopper.payButton()).toHaveAttribute('aria-busy', 'false');
    await expect(sheet.message()).toHaveText(busy);
    await expect(page.getByRole('heading', { name: 'Thank you, your payment went through' })).toHaveCount(0);
    await page.clock.runFor(5_300);
    await shopper.pay();
    await shopper.seesReceipt();
  });

  test('invalid authorization (401) and insufficient privileges (403) are told apart, without a retry that cannot help', async ({
    page,
  }) => {
    const { shopper, sheet } = await cardTyped(page);
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'status', status: 401 } });
    await shopper.pay();
    await expect(sheet.message()).toHaveText('This payment session has expired. Reload the page to start again.');
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'status', status: 403 } });
    await shopper.pay();
    await expect(sheet.message()).toHaveText('This shop cannot take payments right now. Please contact the shop.');
  });

  test('a gateway error (503): says the card could not be processed, the card stays, and Pay again pays', async ({ page }) => {
    const { shopper, sheet } = await cardTyped(page);
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'status', status: 503 } });
    await shopper.pay();
    await expect(sheet.message()).toHaveText('The payment service could not process the card. Please try again.');
    await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
    await shopper.pay();
    await shopper.seesReceipt();
  });

  test('a gateway that never answers: "request timed out", then Pay again pays', async ({ page }) => {
    await page.clock.install();
    const { shopper, sheet } = await cardTyped(page);
    await injectSandboxFault({ target: 'tokenization', fault: { type: 'timeout' } });
    const sent = page.waitForRequest(/\/client_api\/v1\/payment_methods\/credit_cards/);
    await shopper.pay();
    await sent;
    await page.clock.fastForward(TOKENIZATION_TIMEOUT_MS);
    await expect(sheet.message()).toHaveText('The payment service took too long to answer. Please try again.');
    await shopper.pay();
    await shopper.seesReceipt();
  });
});

test.describe('the two readings of the postal code', () => {
  test('asked when the gateway challenges it, absent when it does not', async ({ page }) => {
    await changeSandboxSettings({ challenges: ['cvv'] });
    const shopper = new Shopper(page);
    await shopper.startCheckoutOfNewOrder();
    await expect(page.locator('iframe[name="kassa-field-cvv"]')).toHaveCount(1);
    await expect(page.locator('iframe[name="kassa-field-postalCode"]')).toHaveCount(0);
    await expect(page.getByText('Postal code')).toHaveCount(0);
  });

  test('required by the merchant (postalCode: "required") even when the gateway does not challenge it', async ({ page }) => {
    await changeSandboxSettings({ challenges: ['cvv'] });
    await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: { postalCode: 'required' } });
    const sheet = new CheckoutSheet(page);
    await sheet.seesState('ready');
    await expect(page.locator('iframe[name="kassa-field-postalCode"]')).toHaveCount(1);
    expect(await requestPaymentMethod(page)).toEqual([
      { ok: false, code: 'invalid_fields', message: 'Check your entries and try again.' },
    ]);
    await expect(sheet.root().getByText('Enter a postal code.', { exact: true })).toBeVisible();
  });
});
