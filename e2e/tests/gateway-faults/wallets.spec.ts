import { expect, test, type Browser, type Page } from '@playwright/test';
import decodeQR from 'qr/decode.js';
import { recordedPayment } from '../../support/admin-api.ts';
import { CheckoutSheet } from '../../support/checkout-sheet.ts';
import { transactionDeviceData } from '../../support/gateway-records.ts';
import { currentProduct } from '../../support/products.ts';
import { changeSandboxSettings, resetSandboxSettings } from '../../support/sandbox-settings.ts';
import { holdCardRules } from '../../support/held-card-rules.ts';
import { cards, Shopper, uniqueEmail } from '../../support/shopper.ts';
import { axeOn } from '../../support/axe.ts';

// The wallets against the sandbox, every one turned on in the merchant settings: the option list, each wallet's own
// view and button, the sandbox's approval page in the wallet's window (each wallet cancelled, failed, then approved),
// Venmo's QR code on a desktop scanned by a "phone" (another browser context), and the paid order's payment-method
// type as the server recorded it (admin API), with the device data the gateway's transaction carries. Under gateway-faults/: merchant settings apply to the whole running
// product.
test.beforeEach(async () => {
  await changeSandboxSettings({ wallets: ['paypal', 'venmo', 'apple_pay', 'google_pay'] });
});
test.afterEach(async () => {
  await resetSandboxSettings();
});

const WINDOW_WALLETS = [
  { option: 'PayPal', view: 'paypal', type: 'paypal_account', account: 'shopper@paypal.example' },
  { option: 'PayPal Credit', view: 'paypalCredit', type: 'paypal_account', account: 'shopper@paypal.example' },
  { option: 'Apple Pay', view: 'applePay', type: 'apple_pay_card', account: null },
  { option: 'Google Pay', view: 'googlePay', type: 'android_pay_card', account: null },
] as const;

const FAILED = 'This way to pay did not go through. Please try again or choose another way to pay.';

function orderIdOf(page: Page): string {
  return /\/checkout\/([^/?#]+)/.exec(page.url())?.[1] ?? '';
}

async function openWallet(page: Page, option: string): Promise<{ shopper: Shopper; sheet: CheckoutSheet; orderId: string }> {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.startCheckoutOfNewOrder();
  await sheet.seesView('options');
  await sheet.root().getByRole('button', { name: option, exact: true }).click();
  return { shopper, sheet, orderId: orderIdOf(page) };
}

function walletButton(page: Page, option: string) {
  return page.locator('[data-kassa-checkout]').getByRole('button', { name: `Pay with ${option}`, exact: true });
}

/** Presses the wallet's button ("Pay with PayPal", or `button`) and answers on the sandbox's page in its window. */
async function answerInWindow(
  page: Page,
  option: string,
  answer: 'Approve' | 'Cancel' | 'Simulate a failure',
  button = walletButton(page, option),
): Promise<void> {
  const opened = page.waitForEvent('popup');
  await button.click();
  const popup = await opened;
  // The checkout closes the window once the page has answered: wait for that from before the click. Without site
  // isolation (support/chromium.ts) the window can close before Playwright hears that the click was done (the click then
  // fails with "Target page, context or browser has been closed": seen once in about 30 answers, an Apple Pay
  // approval): the click is over when the window is. The answer's button is seen first, so a window that closed by
  // itself (which the checkout takes as a cancel) fails here and is not taken for the shopper's Cancel.
  const closed = popup.waitForEvent('close');
  const answerButton = popup.getByRole('button', { name: answer });
  await expect(answerButton).toBeVisible();
  await answerButton.click().catch((error: unknown) => {
    if (!String(error).includes('has been closed')) throw error;
  });
  await closed;
}

/** The URL the checkout's QR code holds, read from its pixels as a phone's camera would. */
async function scanQrCode(page: Page): Promise<string> {
  const code = page.getByRole('img', { name: /^QR code to pay with Venmo/ });
  await expect(code).toBeVisible();
  // 256 px is 6 or more pixels a module; the pixels travel as one base64 string (an array of numbers is slow to pass).
  const image = await code.evaluate(async (svg) => {
    const size = 256;
    const picture = new Image(size, size);
    picture.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(new XMLSerializer().serializeToString(svg))}`;
    await picture.decode();
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const context = canvas.getContext('2d');
    if (context === null) throw new Error('no 2d canvas');
    context.drawImage(picture, 0, 0, size, size);
    const pixels = context.getImageData(0, 0, size, size).data;
    let binary = '';
    for (let i = 0; i < pixels.length; i += 0x8000) binary += String.fromCharCode(...pixels.subarray(i, i + 0x8000));
    return { width: size, height: size, data: btoa(binary) };
  });
  return decodeQR({ width: image.width, height: image.height, data: Uint8Array.from(Buffer.from(image.data, 'base64')) });
}

/** A phone: its own browser context (no window.opener, no cookies of the shop), a touch screen. */
async function approveOnPhone(browser: Browser, url: string, answer: 'Approve' | 'Cancel'): Promise<void> {
  const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const page = await phone.newPage();
  await page.goto(url);
  await page.getByRole('button', { name: answer }).click();
  // Nothing closes the page on the phone: it says the shopper can go back to the checkout.
  await expect(page.getByRole('status')).toHaveText(/You can go back to the checkout\.$/);
  await phone.close();
}

test("the option list offers the card and every wallet and passes axe; on a wallet's view only its own button pays (the shop's Pay hidden), and the toggle goes back to the card, where Pay is back", async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.startCheckoutOfNewOrder();
  await sheet.seesView('options');
  await expect(sheet.root().getByRole('heading', { name: 'Choose a way to pay' })).toBeVisible();
  const list = sheet.root().getByRole('list', { name: 'Choose a way to pay' });
  // Retried until the list is drawn: a single read right after the heading found no button yet (an idle fresh clone).
  await expect(list.getByRole('button').locator('.kassa-option__label')).toHaveText([
    'Card',
    'PayPal',
    'PayPal Credit',
    'Venmo',
    'Apple Pay',
    'Google Pay',
  ]);
  expect((await axeOn(page).include('[data-kassa-checkout]').analyze()).violations).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('options.png') });

  await list.getByRole('button', { name: 'PayPal', exact: true }).click();
  await sheet.seesView('paypal');
  await expect(walletButton(page, 'PayPal')).toBeFocused();
  await expect(shopper.payButton()).toBeHidden();
  await sheet.toggle().click();
  await sheet.seesView('options');
  await list.getByRole('button', { name: 'Card' }).click();
  await sheet.seesView('card');
  await expect(shopper.field('number')).toBeVisible();
  await expect(shopper.payButton()).toBeVisible();
});

test('a card payment on its way keeps "Choose another way to pay" in its place, unseen and taking no click: the shop\'s Pay button under the sheet does not move', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  // Held, the card rules keep the Pay waiting (its sync), the sheet busy meanwhile.
  const release = await holdCardRules(page);
  // The whole page in view: a page scrolled to its end keeps its end in view as it shortens, and the jump is above.
  await page.setViewportSize({ width: 1280, height: 1100 });
  await shopper.startCheckoutOfNewOrder();
  await sheet.seesView('options');
  await sheet.root().getByRole('button', { name: 'Card', exact: true }).click();
  await sheet.seesView('card');
  await shopper.enterCard(cards.visa);
  // The same button while it pays, whose name says so then ("Paying…").
  const pay = await shopper.payButton().elementHandle();
  const toggle = await sheet.toggle().elementHandle();
  if (pay === null || toggle === null) throw new Error('no Pay button or toggle');
  const before = await pay.boundingBox();
  const toggleBox = await toggle.boundingBox();
  await shopper.pay();
  await sheet.seesState('submitting');
  await expect(sheet.status()).toHaveText('Processing your payment…');
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  // The page's Pay button stays under the pointer: the toggle is unseen and out of the accessibility tree, its box kept.
  expect(await pay.boundingBox()).toEqual(before);
  expect(await toggle.boundingBox()).toEqual(toggleBox);
  await expect(sheet.toggle()).toHaveCount(0);
  expect(await toggle.evaluate((element) => getComputedStyle(element).visibility)).toBe('hidden');
  await page.screenshot({ path: test.info().outputPath('card-paying-with-wallets.png') });
  release();
  await shopper.seesReceipt();
});

/**
 * The order was paid with a wallet of `type` as the server recorded it, and the gateway's transaction carries the
 * device data the checkout collected in this browser (its collector's session found).
 */
async function paidWith(page: Page, orderId: string, type: string): Promise<void> {
  const payment = await recordedPayment(page, orderId);
  expect(payment.paymentMethodType).toBe(type);
  const { deviceData, deviceSession } = await transactionDeviceData(payment.transactionId ?? 'none');
  expect(JSON.parse(deviceData)).toMatchObject({ device_session_id: expect.any(String), correlation_id: expect.any(String) });
  expect(deviceSession).not.toBeNull();
}

/** Cancelled in its window: nothing shown, focus back on the button; then failed: the checkout says so. */
async function cancelThenFail(page: Page, sheet: CheckoutSheet, option: string): Promise<void> {
  await answerInWindow(page, option, 'Cancel');
  await expect(walletButton(page, option)).toBeFocused();
  await expect(sheet.root().getByRole('alert')).toHaveText(['']);
  await answerInWindow(page, option, 'Simulate a failure');
  await expect(sheet.root().getByRole('alert').filter({ hasText: FAILED })).toBeVisible();
  await expect(walletButton(page, option)).toBeFocused();
}

for (const { option, view, type, account } of WINDOW_WALLETS) {
  test(`${option}: its view passes axe; cancelled in its window nothing is shown, failed the checkout says so, approved the order is paid at once, recorded as ${type} with device data at the gateway`, async ({
    page,
  }) => {
    const { shopper, sheet, orderId } = await openWallet(page, option);
    await sheet.seesView(view);
    expect((await axeOn(page).include('[data-kassa-checkout]').analyze()).violations).toEqual([]);
    await cancelThenFail(page, sheet, option);
    await answerInWindow(page, option, 'Approve');
    if (account !== null) await expect(sheet.root().getByText(account).first()).toBeVisible();
    await shopper.seesReceipt();
    await paidWith(page, orderId, type);
  });
}

test('PayPal saved on the account page (its vault flow) is listed by its email and mark, is not saved twice, pays an order from the saved list, and Edit deletes it', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  const label = 'PayPal · shopper@paypal.example';
  await shopper.signUpThroughApi('Pat Payer', uniqueEmail('pat'), 'billing-agreement-1');
  await page.goto('/account/payment-methods');
  await page.getByRole('button', { name: 'Add a card' }).click();
  await sheet.seesView('options');
  await sheet.root().getByRole('button', { name: 'PayPal', exact: true }).click();
  await expect(sheet.root().getByText('approve there and PayPal is saved for your next payments')).toBeVisible();
  // PayPal's own button saves it: the form's "Save card" is hidden on PayPal's view.
  await expect(page.getByRole('button', { name: 'Save card', exact: true })).toBeHidden();
  await answerInWindow(page, 'PayPal', 'Approve', sheet.root().getByRole('button', { name: 'Save PayPal', exact: true }));
  await expect(shopper.accountStatus()).toHaveText(`${label} saved.`);
  await expect(shopper.accountRow(label)).toBeVisible();
  const accountMark = await shopper.accountRow(label).locator('.account-row-mark').innerHTML();

  // The same PayPal account approved again is not saved twice: the page says it is saved already.
  await page.getByRole('button', { name: 'Add a card' }).click();
  await sheet.root().getByRole('button', { name: 'PayPal', exact: true }).click();
  await answerInWindow(page, 'PayPal', 'Approve', sheet.root().getByRole('button', { name: 'Save PayPal', exact: true }));
  await expect(page.locator('.add-card > .form-error')).toHaveText(`${label} is already saved.`);
  await expect(page.getByRole('heading', { name: label })).toHaveCount(1);
  await page.screenshot({ path: test.info().outputPath('account-paypal.png'), fullPage: true });

  // The checkout lists it by its way to pay and account, chosen as the default, beside the mark the account page
  // shows too; Pay pays with it (no window).
  await shopper.startCheckoutOfNewOrder();
  const saved = shopper.savedCard('PayPal');
  await expect(saved).toBeChecked();
  await expect(sheet.root().getByText('shopper@paypal.example')).toBeVisible();
  expect(await sheet.root().locator('.kassa-method__mark[data-option="paypal"]').innerHTML()).toBe(accountMark);
  await page.screenshot({ path: test.info().outputPath('saved-paypal.png') });
  await shopper.pay();
  const orderId = await shopper.seesReceipt();
  expect((await recordedPayment(page, orderId)).paymentMethodType).toBe('paypal_account');

  // Edit deletes it through the server, after the question.
  await shopper.startCheckoutOfNewOrder();
  await sheet.root().getByRole('button', { name: 'Edit', exact: true }).click();
  await sheet
    .root()
    .getByRole('button', { name: /^Delete PayPal/ })
    .click();
  const dialog = sheet.root().getByRole('dialog', { name: 'Delete PayPal (shopper@paypal.example)?' });
  const deletion = page.waitForResponse(
    (r) => r.request().method() === 'DELETE' && /\/api\/payment-methods\/[^/]+$/.test(r.url()),
  );
  await dialog.getByRole('button', { name: 'Delete' }).click();
  expect((await deletion).status()).toBe(204);
  await expect(shopper.savedCard('PayPal')).toHaveCount(0);
  expect((await (await page.request.get('/api/payment-methods')).json()).paymentMethods).toEqual([]);
});

test('signed in, PayPal approved with "Save PayPal for my next payments" pays the order with the saved PayPal (the server\'s save, then its nonce), and again on the next order it is not saved twice', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.signUpThroughApi('Sam Saver', uniqueEmail('sam'), 'save-while-paying-1');
  const saves: number[] = [];
  page.on('response', (response) => {
    if (response.request().method() === 'POST' && new URL(response.url()).pathname === '/api/payment-methods')
      saves.push(response.status());
  });
  const payWithPayPalSaved = async (): Promise<string> => {
    await sheet.root().getByRole('button', { name: 'PayPal', exact: true }).click();
    const save = sheet.root().getByRole('checkbox', { name: 'Save PayPal for my next payments' });
    await expect(save).toBeChecked();
    await page.screenshot({ path: test.info().outputPath(`save-paypal-${saves.length}.png`) });
    await answerInWindow(page, 'PayPal', 'Approve');
    return shopper.seesReceipt();
  };

  await shopper.startCheckoutOfNewOrder();
  await sheet.seesView('options');
  const first = await payWithPayPalSaved();
  expect((await recordedPayment(page, first)).paymentMethodType).toBe('paypal_account');
  const listed = async () =>
    (
      (await (await page.request.get('/api/payment-methods')).json()) as {
        paymentMethods: Array<{ type: string; email: string }>;
      }
    ).paymentMethods;
  expect(await listed()).toMatchObject([{ type: 'PayPalAccount', email: 'shopper@paypal.example' }]);

  // The next order opens on the saved PayPal; approving PayPal again with the box ticked pays, and saves nothing new.
  await shopper.startCheckoutOfNewOrder();
  await expect(shopper.savedCard('PayPal')).toBeChecked();
  const second = await payWithPayPalSaved();
  expect((await recordedPayment(page, second)).paymentMethodType).toBe('paypal_account');
  expect(saves).toEqual([201, 409]);
  expect(await listed()).toHaveLength(1);
});

test('saved Venmo, Apple Pay and Google Pay are listed by their way to pay and account with the marks the account page shows; the saved Google Pay pays an order, recorded as android_pay_card', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.signUpThroughApi('Wes Wallets', uniqueEmail('wes'), 'saved-wallets-1');
  for (const nonce of ['fake-venmo-account-nonce', 'fake-apple-pay-visa-nonce', 'fake-android-pay-mastercard-nonce'])
    await shopper.savesCardThroughApi(nonce);
  const saved = [
    { name: 'Venmo', option: 'venmo', account: '@venmojoe', row: 'Venmo · @venmojoe' },
    { name: 'Apple Pay', option: 'applePay', account: 'Visa 1111', row: 'Apple Pay · Visa ending in 1111' },
    // The checkout names the card as the gateway's description does ("MasterCard 4444"), the account page as the
    // shop does ("Mastercard"): either is the shopper's card.
    { name: 'Google Pay', option: 'googlePay', account: /Mastercard 4444/i, row: 'Google Pay · Mastercard ending in 4444' },
  ] as const;

  await page.goto('/account/payment-methods');
  const accountMarks = new Map<string, string>();
  for (const { option, row } of saved)
    accountMarks.set(option, await shopper.accountRow(row).locator('.account-row-mark').innerHTML());

  await shopper.startCheckoutOfNewOrder();
  await expect(shopper.savedCard('Venmo')).toBeChecked();
  for (const { name, option, account } of saved) {
    const method = sheet.root().locator('.kassa-method').filter({ hasText: name });
    await expect(method).toContainText(account);
    expect(await method.locator(`.kassa-method__mark[data-option="${option}"]`).innerHTML()).toBe(accountMarks.get(option));
  }
  await page.screenshot({ path: test.info().outputPath('saved-wallets.png') });
  await shopper.savedCard('Google Pay').check();
  await expect(sheet.root().getByRole('heading', { name: 'Paying with Google Pay' })).toBeVisible();
  await shopper.pay();
  const orderId = await shopper.seesReceipt();
  expect((await recordedPayment(page, orderId)).paymentMethodType).toBe('android_pay_card');
});

test('Venmo on a desktop: a QR code a phone scans; cancelled on the phone or in the checkout, nothing is shown and the button is back; approved on the phone, the order is paid, recorded as venmo_account with device data at the gateway', async ({
  page,
  browser,
}) => {
  const { shopper, sheet, orderId } = await openWallet(page, 'Venmo');
  await sheet.seesView('venmo');
  await walletButton(page, 'Venmo').click();
  await approveOnPhone(browser, await scanQrCode(page), 'Cancel');
  await expect(walletButton(page, 'Venmo')).toBeFocused();
  await walletButton(page, 'Venmo').click();
  await expect(page.getByRole('img', { name: /^QR code/ })).toBeVisible();
  await sheet.root().getByRole('button', { name: 'Cancel' }).click();
  await expect(walletButton(page, 'Venmo')).toBeFocused();
  await expect(sheet.root().getByRole('alert')).toHaveText(['']);

  await walletButton(page, 'Venmo').click();
  const url = await scanQrCode(page);
  expect(new URL(url).origin).toBe(currentProduct().sandboxUrl);
  expect((await axeOn(page).include('[data-kassa-checkout]').analyze()).violations).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('venmo-qr.png') });
  await approveOnPhone(browser, url, 'Approve');
  await shopper.seesReceipt();
  await paidWith(page, orderId, 'venmo_account');
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });

  test('Venmo opens its app (the sandbox page in a window): cancelled nothing is shown, failed it says so, approved the order is paid', async ({
    page,
  }) => {
    const { shopper, sheet, orderId } = await openWallet(page, 'Venmo');
    await cancelThenFail(page, sheet, 'Venmo');
    await answerInWindow(page, 'Venmo', 'Approve');
    await shopper.seesReceipt();
    expect((await recordedPayment(page, orderId)).paymentMethodType).toBe('venmo_account');
  });

  test('signed in, Venmo approved in its app with "Save Venmo for my next payments" is saved and pays the order', async ({
    page,
  }) => {
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.signUpThroughApi('Val Venmo', uniqueEmail('val'), 'save-venmo-1');
    await shopper.startCheckoutOfNewOrder();
    await sheet.root().getByRole('button', { name: 'Venmo', exact: true }).click();
    await expect(sheet.root().getByRole('checkbox', { name: 'Save Venmo for my next payments' })).toBeChecked();
    await answerInWindow(page, 'Venmo', 'Approve');
    const orderId = await shopper.seesReceipt();
    expect((await recordedPayment(page, orderId)).paymentMethodType).toBe('venmo_account');
    const { paymentMethods } = (await (await page.request.get('/api/payment-methods')).json()) as {
      paymentMethods: Array<{ type: string; username: string }>;
    };
    expect(paymentMethods).toMatchObject([{ type: 'VenmoAccount', username: 'venmojoe' }]);
  });
});

// Screenshots of every wallet view, for the people who look at them (test output: *-light.png, *-dark.png, *-phone.png).
test('each wallet view opens from the option list in the light and dark themes and at a phone width', async ({ page }) => {
  const views = [...WINDOW_WALLETS.map(({ option, view }) => ({ option, view })), { option: 'Venmo', view: 'venmo' }];
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.startCheckoutOfNewOrder();
  for (const { name, width } of [
    { name: 'light', width: 1280 },
    { name: 'dark', width: 1280 },
    { name: 'phone', width: 390 },
  ]) {
    await page.setViewportSize({ width, height: 844 });
    if (name !== 'light') await shopper.themeToggle().click();
    for (const { option, view } of views) {
      await sheet.seesView('options');
      await sheet.root().getByRole('button', { name: option, exact: true }).click();
      await sheet.seesView(view);
      await expect(walletButton(page, option)).toBeVisible();
      await page.screenshot({ path: test.info().outputPath(`${view}-${name}.png`), fullPage: true });
      await sheet.toggle().click();
    }
  }
});
