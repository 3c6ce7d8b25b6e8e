import { expect, test } from '@playwright/test';
import { CheckoutSheet } from '../support/checkout-sheet.ts';
import {
  clientTokenForNewOrder,
  dropinCreateRejection,
  instanceCall,
  integratorErrors,
  openIntegratorPage,
  requestPaymentMethod,
} from '../support/integrator-page.ts';
import { cards, Shopper } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';

// The catalogue messages the shop's own pages never lead to, reached through the real checkout on an integrator's page
// (support/integrator-page.ts: <Checkout> with the test's options, the instance called as an integrator's Pay button
// would): what the shopper reads in the sheet, and what the integrator's code receives (onError, the rejection of
// requestPaymentMethod()). The wallet buttons' messages need wallets turned on at the gateway: gateway-faults/option-list.spec.ts.

/** The sheet's sentence for a start it cannot make or finish: a bad client token, a part or module that did not download. */
const cannotStart = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';

test('a client token that is not one: "The payment form cannot start…", no retry, and onError says invalid_authorization; create() names a missing or non-empty container', async ({
  page,
}) => {
  await openIntegratorPage(page, { authorization: 'not-a-client-token' });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'invalid_authorization', message: cannotStart }]);
  // The plain-page entry (@kassa/checkout/dropin) refuses a container it cannot use before loading anything.
  expect(await dropinCreateRejection(page, '#nowhere')).toBe(
    '[kassa/checkout] create(): options.container must be an element or a selector of one; "#nowhere" matched nothing.',
  );
  expect(await dropinCreateRejection(page, 'main')).toBe(
    '[kassa/checkout] create(): options.container must be empty (the checkout replaces nothing of yours).',
  );
});

test('no way to pay enabled (card: false, no wallet): "No way to pay is available for this shop.", no retry', async ({
  page,
}) => {
  const message = 'No way to pay is available for this shop.';
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: { card: false } });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(message);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'no_payment_options', message }]);
});

test('a gateway configuration the client cannot read: "The payment form could not be set up…" (axe finds nothing), and Try again loads the form', async ({
  page,
}) => {
  const message = 'The payment form could not be set up. Please try again.';
  const authorization = await clientTokenForNewOrder(page);
  const { configUrl } = JSON.parse(Buffer.from(authorization, 'base64').toString('utf8')) as { configUrl: string };
  // Stands in for what cannot run here: a captive portal or a proxy answering the configuration request with its own
  // HTML page (200). Once: Try again reaches the gateway.
  await page.route(
    (url) => url.href.startsWith(configUrl),
    (route) => route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Sign in to the Wi-Fi</title>' }),
    { times: 1 },
  );
  await openIntegratorPage(page, { authorization });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(message);
  expect(await integratorErrors(page)).toEqual([{ code: 'configuration_failed', message }]);
  expect((await axeOn(page).include('[data-kassa-checkout]').analyze()).violations).toEqual([]);
  // The sheet keeps the loading overlay's room (8rem) under the message and Try again, with no card form under them.
  const { height, rem } = await sheet.root().evaluate((root) => ({
    height: root.getBoundingClientRect().height,
    rem: Number.parseFloat(getComputedStyle(document.documentElement).fontSize),
  }));
  expect(height).toBeGreaterThanOrEqual(8 * rem);
  await sheet.root().getByRole('button', { name: 'Try again' }).click();
  await sheet.seesState('ready');
  await expect(sheet.message()).toHaveText('');
});

test('a part of the checkout failing to download (the saved methods\', for vaultCard): "The payment form cannot start. Reload the page…", no Try again, onError says network', async ({
  page,
}) => {
  const setup = { authorization: await clientTokenForNewOrder(page), options: { vaultCard: true } };
  await openIntegratorPage(page, setup, { failing: /^saved-methods-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
});

test('a part of the checkout whose download stalls (the saved methods\', for vaultCard): the load ends at the parts\' time limit with "The payment form cannot start. Reload the page…", no Try again, onError says network', async ({
  page,
}) => {
  await page.clock.install();
  const asked = page.waitForRequest(/\/__integrator\/saved-methods-/);
  const setup = { authorization: await clientTokenForNewOrder(page), options: { vaultCard: true } };
  await openIntegratorPage(page, setup, { stalling: /^saved-methods-/ });
  await asked;
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('loading');
  // The time limit of a part's download (OPTION_LOAD_TIMEOUT_MS, runtime/in-time.ts), run forward on the page's
  // clock: it starts once the saved methods' list is in, beside the chunk's request, so the clock is run forward again
  // until it has passed.
  await expect(async () => {
    await page.clock.fastForward(20_000);
    await expect(sheet.root()).toHaveAttribute('data-state', 'error', { timeout: 1_000 });
  }).toPass();
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
});

test("a locale's catalogue whose download stalls (German): the checkout starts in English at the parts' time limit, as when the catalogue fails, not a form that never starts", async ({
  page,
}) => {
  await page.clock.install();
  const asked = page.waitForRequest(/\/__integrator\/de-/);
  const setup = { authorization: await clientTokenForNewOrder(page), options: { locale: 'de' } };
  await openIntegratorPage(page, setup, { stalling: /^de-/ });
  await asked;
  const sheet = new CheckoutSheet(page);
  const number = page.locator('iframe[name="kassa-field-number"]');
  // Until the catalogue is in, no checkout is started: the loading state without words, no frames.
  await sheet.seesState('loading');
  await expect(number).toHaveCount(0);
  // The time limit (OPTION_LOAD_TIMEOUT_MS, runtime/in-time.ts), started with the chunk's import.
  await page.clock.fastForward(20_000);
  await sheet.seesState('ready');
  await expect(sheet.root()).toHaveAttribute('lang', 'en');
  await expect(number).toHaveAttribute('title', 'Card number');
  await new Shopper(page).enterCard(cards.visa);
  const [paid] = await requestPaymentMethod(page);
  expect(paid).toMatchObject({ ok: true, result: { type: 'CreditCard', details: { lastFour: '1111' } } });
});

test('the payment\'s part failing to download: a request shows "The payment form cannot start. Reload the page…", no Try again; it and onError say network', async ({
  page,
}) => {
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: {} }, { failing: /^payment-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await new Shopper(page).enterCard(cards.visa);
  expect(await requestPaymentMethod(page)).toEqual([{ ok: false, code: 'network', message: cannotStart }]);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
});

test('the payment\'s part whose download stalls: a request ends at the parts\' time limit with "The payment form cannot start. Reload the page…", no Try again; it and onError say network', async ({
  page,
}) => {
  await page.clock.install();
  const asked = page.waitForRequest(/\/__integrator\/payment-/);
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: {} }, { stalling: /^payment-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await asked;
  await new Shopper(page).enterCard(cards.visa);
  const outcome = requestPaymentMethod(page);
  // The time limit of a part's download (OPTION_LOAD_TIMEOUT_MS, runtime/in-time.ts), from the import the
  // checkout started at ready, run forward on the page's clock rather than waited out.
  await page.clock.fastForward(20_000);
  expect(await outcome).toEqual([{ ok: false, code: 'network', message: cannotStart }]);
  await sheet.seesState('error');
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(sheet.root().getByRole('button', { name: 'Try again' })).toHaveCount(0);
  expect(await integratorErrors(page)).toEqual([{ code: 'network', message: cannotStart }]);
});

test('a submit\'s module of the card frames failing to download: a Pay shows "The payment form cannot start. Reload the page…", it says network, and the card stays typed', async ({
  page,
}) => {
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: {} }, { failing: /^submit-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  const shopper = new Shopper(page);
  await shopper.enterCard(cards.visa);
  expect(await requestPaymentMethod(page)).toEqual([{ ok: false, code: 'network', message: cannotStart }]);
  await expect(sheet.message()).toHaveText(cannotStart);
  await expect(shopper.field('number')).not.toHaveValue('');
});

test("a submit's module of the card frames whose download stalls: a Pay ends within the tokenization's time limit as one that failed, the card still typed", async ({
  page,
}) => {
  // The checkout's time limit for a tokenization, its module's download included (fields/hosted-fields.ts), run forward
  // on the page's clock rather than waited out.
  const tokenizeTimeoutMs = 30_000;
  await page.clock.install();
  // The network holds the module's request: no answer, no failure.
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: {} }, { stalling: /^submit-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  const asked = page.waitForRequest(/\/__integrator\/submit-/);
  const shopper = new Shopper(page);
  await shopper.enterCard(cards.visa);
  await asked;
  const outcome = requestPaymentMethod(page);
  await sheet.seesState('submitting');
  await page.clock.fastForward(tokenizeTimeoutMs);
  expect(await outcome).toEqual([{ ok: false, code: 'network', message: cannotStart }]);
  await expect(sheet.message()).toHaveText(cannotStart);
  await sheet.seesState('ready');
  await expect(shopper.field('number')).not.toHaveValue('');
});

test('a card the gateway refuses (expired by its clock, not by the shopper\'s): "Credit card is invalid", the date marked and focused', async ({
  page,
}) => {
  // The shopper's computer is years behind: the frame (its clock) takes 12/21, the gateway (its own clock) does not.
  await page.clock.setFixedTime(new Date('2020-06-15T12:00:00Z'));
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page) });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await new Shopper(page).enterCard({ ...cards.visa, expiry: '12/21' });
  expect(await requestPaymentMethod(page)).toEqual([{ ok: false, code: 'invalid_fields', message: 'Credit card is invalid' }]);
  await expect(sheet.message()).toHaveText('Credit card is invalid');
  await expect(sheet.root().getByText('This expiration date is not valid.')).toBeVisible();
  await expect.poll(() => sheet.focusedField()).toBe('expirationDate');
});

test('a second request while the card is sent: "The card is already being processed."; updateConfiguration() turns clearing on; after teardown: "The payment form is not ready yet."', async ({
  page,
}) => {
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page) });
  await new CheckoutSheet(page).seesState('ready');
  const shopper = new Shopper(page);
  await shopper.enterCard(cards.visa);
  // The one option that can change after creation: the fields are emptied once the card is tokenized.
  await page.evaluate(() =>
    (
      window as unknown as { integrator: { instance: { updateConfiguration(o: string, k: string, v: unknown): void } } }
    ).integrator.instance.updateConfiguration('card', 'clearFieldsAfterTokenization', true),
  );
  const [first, second] = await requestPaymentMethod(page, 2);
  expect(first).toMatchObject({ ok: true, result: { type: 'CreditCard', details: { lastFour: '1111' } } });
  expect(second).toEqual({ ok: false, code: 'request_in_progress', message: 'The card is already being processed.' });
  await expect(shopper.field('number')).toHaveValue('');
  await expect(shopper.field('cvv')).toHaveValue('');

  await instanceCall(page, 'teardown');
  expect(await requestPaymentMethod(page)).toEqual([
    { ok: false, code: 'not_ready', message: 'The payment form is not ready yet.' },
  ]);
});

test('the cardholder name in the provider\'s shapes: { required: true } asks "Enter the name shown on the card." with every empty field\'s message; true is optional (digits still "not valid"); false hides it', async ({
  page,
}) => {
  const authorization = await clientTokenForNewOrder(page);
  const sheet = new CheckoutSheet(page);
  const nameFrame = page.locator('iframe[name="kassa-field-cardholderName"]');
  const optional = sheet.root().locator('.kassa-field[data-field="cardholderName"] .kassa-field__optional');

  await openIntegratorPage(page, { authorization, options: { card: { cardholderName: { required: true } } } });
  await sheet.seesState('ready');
  await expect(nameFrame).toHaveCount(1);
  await expect(optional).toHaveCount(0);
  expect(await requestPaymentMethod(page)).toEqual([
    { ok: false, code: 'invalid_fields', message: 'Check your entries and try again.' },
  ]);
  for (const message of [
    'Enter the name shown on the card.',
    'Enter a card number.',
    'Enter an expiration date.',
    'Enter the security code.',
    'Enter a postal code.',
  ])
    await expect(sheet.root().getByText(message, { exact: true })).toBeVisible();

  await openIntegratorPage(page, { authorization, options: { card: { cardholderName: true } } });
  await sheet.seesState('ready');
  await expect(optional).toHaveText('(optional)');
  // Optional, but not anything: a card number typed in the name field is refused when the shopper moves on.
  const shopper = new Shopper(page);
  await shopper.typeInto('cardholderName', '4111 1111');
  await shopper.field('number').click();
  await expect(sheet.root().getByText('This cardholder name is not valid.', { exact: true })).toBeVisible();

  await openIntegratorPage(page, { authorization, options: { card: { cardholderName: false } } });
  await sheet.seesState('ready');
  await expect(nameFrame).toHaveCount(0);
  await expect(page.locator('iframe[name="kassa-field-number"]')).toHaveCount(1);
});

test("the merchant's own words (options.translations) replace the catalogue's: a label, its frame's title, the sheet message", async ({
  page,
}) => {
  const translations = {
    'field.number.label': 'Long number on the card',
    'error.checkEntries': 'Some card details are missing.',
  };
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page), options: { translations } });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  await expect(sheet.root().getByText('Long number on the card', { exact: true })).toBeVisible();
  await expect(page.locator('iframe[name="kassa-field-number"]')).toHaveAttribute('title', 'Long number on the card');
  expect(await requestPaymentMethod(page)).toEqual([
    { ok: false, code: 'invalid_fields', message: 'Some card details are missing.' },
  ]);
  await expect(sheet.message()).toHaveText('Some card details are missing.');
});
