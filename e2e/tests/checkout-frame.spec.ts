import { expect, test } from '@playwright/test';
import { axeOn } from '../support/axe.ts';
import { catalogue } from '../support/catalogue.ts';
import { chromiumLaunchOptions } from '../support/chromium.ts';
import { holdCardRules } from '../support/held-card-rules.ts';
import { currentProduct } from '../support/products.ts';
import { CheckoutSheet } from '../support/checkout-sheet.ts';
import { clientTokenForNewOrder, openIntegratorPage, requestPaymentMethod } from '../support/integrator-page.ts';
import { cards, Shopper } from '../support/shopper.ts';

// The drop-in's frame as a shopper meets it in the shop: first view, focus, layout, messages. With the card frames in
// renderer processes of their own, as desktop Chrome runs a gateway's frames (the rest of the run shares one process
// a page: support/chromium.ts), so focus and typing across frames are proven across processes too.
test.use({ launchOptions: chromiumLaunchOptions({ siteIsolation: true }) });

test('the card frames run in renderer processes of their own; with the card as the only way to pay, the card form opens directly and there is no toggle', async ({
  page,
}) => {
  const sheet = new CheckoutSheet(page);
  await new Shopper(page).startCheckoutOfNewOrder();
  await sheet.seesView('card');
  await expect(sheet.toggle()).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Pay with card' })).toBeVisible();
  // Chromium lists a frame in another process as a target of its own, of type "iframe"; a frame in its page's does not.
  const cdp = await page.context().newCDPSession(page);
  const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: Array<{ type: string; url: string }> };
  const gatewayOrigin = new URL(currentProduct().sandboxUrl).origin;
  const outOfProcess = targetInfos.filter((target) => target.type === 'iframe' && target.url.startsWith(gatewayOrigin));
  expect(outOfProcess.length).toBeGreaterThan(0);
});

test('an empty field does not complain later because focus went somewhere unrelated first', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.field('number').click();
  // Out of the form (the page's own heading), a pause, then into another card field.
  await page.getByRole('heading', { name: 'Checkout', level: 1 }).click();
  await page.waitForTimeout(600);
  await shopper.field('cvv').click();
  await page.waitForTimeout(300);
  await expect(page.getByText('Enter a card number.')).toHaveCount(0);
  // Moving straight from an empty field to another card field does complain.
  await shopper.field('expirationDate').click();
  await expect(page.getByText('Enter the security code.')).toBeVisible();
});

test('the card number takes typing as soon as its frame is ready; Pay (and Enter) wait for every field', async ({ page }) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  // Every frame but the first made, the number's, is held back: their page is answered only once the test lets it
  // (routing also turns the browser's cache off, so each frame asks for its page). The checkout by its address: the
  // cart page would load that page first, in its warm frame.
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  let frames = 0;
  await page.route('**/hosted-fields/frame.html*', async (route) => {
    frames += 1;
    if (frames > 1) await released;
    await route.continue();
  });
  await shopper.openCheckoutOfNewOrder();
  // A click waits for the field to take it: shown, not inert.
  await shopper.typeInto('number', cards.visa.number);
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  await expect(sheet.root()).toHaveAttribute('data-state', 'loading');
  for (const field of ['cardholderName', 'expirationDate', 'cvv', 'postalCode'])
    await expect(page.locator(`.kassa-field[data-field="${field}"]`)).toHaveAttribute('inert', '');
  await expect(shopper.payButton()).toBeDisabled();
  await shopper.field('number').press('Enter');
  release();
  await expect(sheet.root()).toHaveAttribute('data-state', 'ready');
  await expect(page.locator('.kassa-card .kassa-field[inert]')).toHaveCount(0);
  // Enter before the form was ready paid nothing: the page is still the checkout, with nothing to complain about.
  await expect(sheet.message()).toHaveText('');
  await shopper.typeInto('expirationDate', cards.visa.expiry);
  await shopper.typeInto('cvv', cards.visa.cvv);
  await shopper.typeInto('postalCode', cards.visa.postalCode);
  await shopper.pay();
  await shopper.seesReceipt();
});

test('the detected brand is shown inside the number field; after a failed submit, focus goes to the first field to fix', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.typeInto('number', cards.mastercard.number);
  const numberBox = page.locator('.kassa-field[data-field="number"] .kassa-field__box');
  await expect(numberBox).toHaveAttribute('data-brand', 'mastercard');
  await expect(numberBox.getByRole('img', { name: 'Mastercard' })).toBeVisible();
  // Its mark, a chunk of its own (the card view does not wait for it), drawn in the labelled frame: two circles.
  await expect(numberBox.locator('svg circle')).toHaveCount(2);
  await shopper.pay();
  await expect(sheet.message()).toHaveText('Check your entries and try again.');
  await expect.poll(() => sheet.focusedField()).toBe('expirationDate');
});

test("the brands' marks download while the configuration loads, so the first mark is drawn with the brands", async ({ page }) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  // The marks are a chunk of their own, loaded on demand (packages/checkout README, "Build, test, size"). The eight
  // brands drawn under the loading overlay start it as the checkout mounts (their marks, lazy, ask for it in that
  // first render). Without them it would start only once the configuration names the brands, and they would show in
  // empty frames meanwhile. The configuration held until the chunk has arrived: it must come without it.
  let release = (): void => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/client_api/v1/configuration*', async (route) => {
    await released;
    await route.continue();
  });
  const marks = page.waitForRequest((request) => /\/brand-marks-[^/]*\.js$/.test(new URL(request.url()).pathname), {
    timeout: 15_000,
  });
  await shopper.openCheckoutOfNewOrder();
  const downloaded = await (await marks).response();
  expect(downloaded?.ok()).toBe(true);
  await expect(sheet.root()).toHaveAttribute('data-state', 'loading');
  release();
  await sheet.seesState('ready');
  // Mastercard's mark, two circles, in its labelled frame among the accepted brands.
  const accepted = sheet.root().getByRole('list', { name: 'Accepted cards' });
  await expect(accepted.getByRole('img', { name: 'Mastercard' }).locator('circle')).toHaveCount(2);
});

test("the brands' marks failing to download: each accepted brand still named by its labelled frame, and the card pays", async ({
  page,
}) => {
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page) }, { failing: /^brand-marks-/ });
  const sheet = new CheckoutSheet(page);
  await sheet.seesState('ready');
  const accepted = sheet.root().getByRole('list', { name: 'Accepted cards' });
  await expect(accepted.getByRole('img', { name: 'Visa' })).toBeVisible();
  await expect(accepted.locator('svg > :not(rect)')).toHaveCount(0);
  await new Shopper(page).enterCard(cards.visa);
  const [result] = await requestPaymentMethod(page);
  expect(result).toMatchObject({ ok: true, result: { type: 'CreditCard', details: { lastFour: '1111' } } });
});

test('the number frame\'s tokenization failing to download: Pay says "Network error. Please try again.", and Pay once it downloads pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  // The module the number frame imports once the shopper types in it (the sandbox's tokenize.js), out of reach until the
  // test lets it through: the frame's every try fails, the one at Pay too.
  let reachable = false;
  const tries: string[] = [];
  await page.route('**/hosted-fields/tokenize.js*', (route) => {
    tries.push(new URL(route.request().url()).search);
    return reachable ? route.continue() : route.fulfill({ status: 503 });
  });
  await shopper.startCheckoutOfNewOrder();
  await shopper.typeCard(cards.visa);
  await shopper.pay();
  await expect(sheet.message()).toHaveText('Network error. Please try again.');
  reachable = true;
  await shopper.pay();
  await shopper.seesReceipt();
  // Each try after a failed one asks at an address of its own (the browser keeps a failed module's failure).
  expect(new Set(tries).size).toBe(tries.length);
});

test('the card rules download once the form takes typing: a card entered before they arrive is formatted and judged when they do, and pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  // By the checkout's address: no cart page, whose warm frame would have asked for the card rules first.
  const release = await holdCardRules(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await expect(shopper.field('number')).toHaveValue(cards.visa.number);
  release();
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  await expect(shopper.field('expirationDate')).toHaveValue(cards.visa.expiry.replace('/', ' / '));
  await shopper.pay();
  await shopper.seesReceipt();
});

test('the card rules arriving 3 s after Pay: the Pay waits for them (no "Check your entries"), the expiry typed key by key as "3" and a year is "03 / YY", and the card pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  const release = await holdCardRules(page);
  // In the dark theme (the shop follows the system's), for the screenshot of the sheet while it pays.
  await page.emulateMedia({ colorScheme: 'dark' });
  // The page's clock, to run 3 s forward rather than wait them out.
  await page.clock.install();
  await shopper.startCheckoutOfNewOrder();
  const year = cards.visa.expiry.slice(-2);
  await shopper.enterCard({ ...cards.visa, expiry: '' });
  // Key by key: with the rules in, "3" is month 03 at once; the digits "3YY" formatted as a whole would be "3Y / Y".
  await shopper.typeInto('expirationDate', `3${year}`);
  await shopper.pay();
  await sheet.seesState('submitting');
  // Past the 2 s the checkout waited for the frames before it judged the card by their reports from before the rules.
  await page.clock.fastForward(3_000);
  await sheet.seesState('submitting');
  await expect(sheet.message()).toHaveText('');
  // The shopper sees the payment under way meanwhile: the shop's button says so.
  await expect(page.getByRole('button', { name: 'Paying…' })).toHaveAttribute('aria-busy', 'true');
  // And the sheet, as on an integrator's page whose button says nothing (the test above).
  await expect(sheet.status()).toHaveText('Processing your payment…');
  // Nothing else under the spinner: the frames' reports from before the rules (an empty field's focus and blur, reported
  // at once; the typing held back) show no message ("Enter an expiration date." under the expiry typed) and draw no
  // field focused or wrong. The sync's outcome judges the card.
  await sheet.seesNoFieldJudged();
  await page.screenshot({ path: test.info().outputPath('paying-shop-dark.png') });
  release();
  await expect(shopper.field('expirationDate')).toHaveValue(`03 / ${year}`);
  await shopper.seesReceipt();
});

test('the card rules failing to download, as the form opens and again at Pay: "The payment form cannot start. Reload the page…" within seconds, not after the 20 s wait for the frames, the card still typed', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  const asked: string[] = [];
  await page.route('**/hosted-fields/validate.js*', async (route) => {
    asked.push(route.request().url());
    await route.fulfill({ status: 503, body: '' });
  });
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  // Each frame asked once as it was ready; the number's again at the Pay (its sync), at an address of its own.
  await expect(sheet.message()).toHaveText(
    'The payment form cannot start. Reload the page, or contact the shop if it happens again.',
    { timeout: 5_000 },
  );
  expect(asked.some((url) => url.includes('&try=2'))).toBe(true);
  await expect(shopper.field('number')).toHaveValue(cards.visa.number);
});

test('Enter in a card field before the card rules arrive asks to pay at once: the Pay waits for them (submitting meanwhile) and pays once they are in, not by itself later', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  const release = await holdCardRules(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.field('postalCode').press('Enter');
  await sheet.seesState('submitting');
  release();
  await shopper.seesReceipt();
});

test('a Pay held by the card rules on an integrator\'s page, whose own button says nothing: the card form dims and takes no click or typing, a spinner and "Processing your payment…" in the sheet\'s polite status line, then the card pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  const release = await holdCardRules(page);
  await openIntegratorPage(page, { authorization: await clientTokenForNewOrder(page) });
  await sheet.seesState('ready');
  await shopper.enterCard(cards.visa);
  await expect(sheet.status()).toHaveText('');
  const paid = requestPaymentMethod(page);
  await sheet.seesState('submitting');
  await expect(sheet.status()).toHaveText('Processing your payment…');
  await expect(sheet.status()).toBeVisible();
  // role="status" is polite; the sheet is not aria-busy, which lets a screen reader hold back a region's news.
  await expect(sheet.root()).toHaveAttribute('aria-busy', 'false');
  const spinner = await sheet.status().evaluate((status) => {
    const before = getComputedStyle(status, '::before');
    return { animation: before.animationName, width: before.width, border: before.borderTopWidth };
  });
  expect(spinner).toEqual({ animation: 'kassa-spin', width: '16px', border: '2px' });
  // A shopper who asks for less motion gets it standing still.
  await page.emulateMedia({ reducedMotion: 'reduce' });
  expect(await sheet.status().evaluate((status) => getComputedStyle(status, '::before').animationName)).toBe('none');
  await page.emulateMedia({ reducedMotion: 'no-preference' });
  const form = sheet.root().locator('.kassa-card');
  await expect(form).toHaveCSS('opacity', '0.5');
  // A click on the number field and the keys after it reach nothing: the field keeps the card as it was.
  const box = await sheet.root().locator('iframe[name="kassa-field-number"]').boundingBox();
  if (box === null) throw new Error('the number field is not drawn');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await page.keyboard.type('42');
  expect(await sheet.focusedField()).toBe('BODY');
  // Filled field by field before the rules: the frames reported each empty field's focus at once, not its blur.
  await sheet.seesNoFieldJudged();
  await page.screenshot({ path: test.info().outputPath('paying-integrator-light.png') });
  expect((await axeOn(page).analyze()).violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  release();
  const [outcome] = await paid;
  expect(outcome).toMatchObject({ ok: true, result: { type: 'CreditCard', details: { lastFour: '1111' } } });
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  await expect(form).toHaveCSS('opacity', '1');
  await expect(form).not.toHaveAttribute('inert');
});

test('a postal code is checked as written: "-1" is "not valid", "12.345" is accepted and the card pays', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  // The first two characters must be letters or digits.
  await shopper.typeCard({ ...cards.visa, postalCode: '-1' });
  await shopper.field('cardholderName').click();
  await expect(page.getByText('This postal code is not valid.', { exact: true })).toBeVisible();
  await shopper.field('postalCode').fill('');
  await shopper.typeInto('postalCode', '12.345');
  await shopper.field('cardholderName').click();
  await expect(page.getByText('This postal code is not valid.')).toHaveCount(0);
  await shopper.pay();
  await shopper.seesReceipt();
});

for (const [device, viewport] of [
  ['desktop', { width: 1280, height: 900 }],
  ['phone', { width: 390, height: 844 }],
] as const) {
  test(`no layout shift, the shop's header's included, while the form loads after a slow order or when messages appear, and no empty line kept above Pay (${device})`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await CheckoutSheet.recordLayoutShifts(page);
    const shopper = new Shopper(page);
    const sheet = new CheckoutSheet(page);
    await shopper.visitShop();
    await shopper.addToCart(catalogue.everyday);
    await page.getByRole('link', { name: /^Cart/ }).click();
    await expect(page.getByRole('button', { name: 'Go to checkout' })).toBeVisible();
    // The order answered late, as a busy server does: the page's changes then come over 500 ms after the click, where
    // a shift counts (the shop's header included: going to the checkout empties the cart, and its count goes).
    await page.route('**/api/orders', async (route) => {
      await new Promise((resolve) => setTimeout(resolve, 600));
      await route.continue();
    });
    await sheet.forgetLayoutShifts();
    await page.getByRole('button', { name: 'Go to checkout' }).click();
    await sheet.seesState('ready');
    await page.waitForTimeout(500);
    const loaded = await sheet.layoutShift();
    expect(loaded.total, `shifted: ${loaded.sources.join(', ')}`).toBe(0);
    // No empty line is reserved above Pay for a message: the sheet ends with its last field (whose own message line
    // is all it keeps below the box), and Pay follows at the page's own gap.
    const bottoms = await page.evaluate(() => {
      const sheetBox = document.querySelector('[data-kassa-checkout]')?.getBoundingClientRect();
      const lastField = [...document.querySelectorAll('[data-kassa-checkout] .kassa-field')].at(-1)?.getBoundingClientRect();
      return { sheet: sheetBox?.bottom ?? Number.NaN, lastField: lastField?.bottom ?? Number.NaN };
    });
    expect(bottoms.sheet - bottoms.lastField).toBeLessThanOrEqual(0.5);
    const payTop = (await shopper.payButton().boundingBox())?.y ?? Number.NaN;
    expect(payTop - bottoms.sheet).toBeLessThanOrEqual(16);

    // Field messages appear in reserved space; the sheet's message takes the header row.
    await shopper.typeInto('number', '4111111111111112');
    await shopper.field('expirationDate').click();
    await expect(page.getByText('This card number is not valid.')).toBeVisible();
    const postalCode = page.locator('.kassa-field[data-field="postalCode"]');
    const top = () => postalCode.evaluate((element) => element.getBoundingClientRect().top + window.scrollY);
    const before = await top();
    await shopper.pay();
    await expect(sheet.message()).toHaveText('Check your entries and try again.');
    expect(await top()).toBe(before);
    await page.waitForTimeout(700);
    const withMessages = await sheet.layoutShift();
    expect(withMessages.total, `shifted: ${withMessages.sources.join(', ')}`).toBe(0);
    await context.close();
  });
}

test.describe('on a 390 x 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, hasTouch: true, isMobile: true });

  test('Pay is visible without scrolling once the shopper reaches the card form', async ({ page }) => {
    const shopper = new Shopper(page);
    await shopper.startCheckoutOfNewOrder();
    await page.getByRole('group', { name: 'Pay with card' }).scrollIntoViewIfNeeded();
    const form = await page.getByRole('group', { name: 'Pay with card' }).boundingBox();
    const pay = await shopper.payButton().boundingBox();
    if (form === null || pay === null) throw new Error('form or Pay button not laid out');
    // The whole form and Pay fit on one screen: a shopper filling the card sees Pay without scrolling.
    expect(pay.y + pay.height - form.y).toBeLessThanOrEqual(844);
    await page.screenshot({ path: test.info().outputPath('checkout-phone.png'), fullPage: false });
  });
});
