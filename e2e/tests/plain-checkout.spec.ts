import { expect, test, type Page } from '@playwright/test';
import { cards, Shopper } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';

// The drop-in on a page without React (/plain-checkout.html, @kassa/checkout/dropin) paying by a plain form post to
// POST /api/form-payments; its locales, right-to-left layout and dark theme as a shopper meets them.

const axeViolations = async (page: Page, state: string) =>
  (await axeOn(page).analyze()).violations.map(
    (violation) =>
      `${state}: ${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' > ')).join(', ')})`,
  );

/** An order for this browser's session, made through the API the shop uses (the cookie lands in the page's jar). */
async function orderFor(page: Page, productId = 'prd_mug'): Promise<string> {
  const response = await page.request.post('/api/orders', { data: { items: [{ productId, quantity: 1 }] } });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { order: { id: string } }).order.id;
}

async function openPlainCheckout(page: Page, orderId: string, query = ''): Promise<void> {
  await page.goto(`/plain-checkout.html?order=${orderId}${query}`);
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
}

async function orderStatus(page: Page, orderId: string): Promise<string> {
  return ((await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: { status: string } }).order.status;
}

/** The page's Pay button, named in the page's language ("Pay €12.00", "12,00 € bezahlen", "ادفع …"). */
const payButton = (page: Page, name: RegExp = /^Pay /) => page.getByRole('button', { name });

test('a page without React pays an order by a form post: nonce and device data in hidden inputs, then the receipt', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const orderId = await orderFor(page);
  await openPlainCheckout(page, orderId);
  await expect(payButton(page)).toHaveText('Pay €12.00');
  await shopper.enterCard(cards.visa);
  const posted = page.waitForRequest((request) => request.url().endsWith('/api/form-payments') && request.method() === 'POST');
  await shopper.pressBelowCard(payButton(page));
  const form = new URLSearchParams((await posted).postData() ?? '');
  expect([...form.keys()].sort()).toEqual(['botcheck', 'device_data', 'order_id', 'payment_method_nonce']);
  expect(form.get('order_id')).toBe(orderId);
  expect(form.get('payment_method_nonce')).toMatch(/^[\w-]{8,}$/);
  // Card data never reaches the page's form, only the nonce.
  expect((await posted).postData()).not.toContain(cards.visa.number);
  await shopper.seesReceipt();
  expect(page.url()).toContain(`/orders/${orderId}/receipt`);
  expect(await orderStatus(page, orderId)).toBe('paid');
});

test('an incomplete form is not submitted, and a declined payment comes back to the page with its message', async ({ page }) => {
  const shopper = new Shopper(page);
  const orderId = await orderFor(page, 'prd_espressomachine');
  await openPlainCheckout(page, orderId);
  await payButton(page).click();
  await expect(page.getByRole('alert').filter({ hasText: 'Check your entries and try again.' })).toBeVisible();
  expect(page.url()).toContain('/plain-checkout.html');

  await shopper.enterCard(cards.visa);
  await shopper.pressBelowCard(payButton(page));
  await page.waitForURL(/error=payment_declined/);
  await expect(page.locator('#plain-error')).toHaveText('Your card was declined (Do Not Honor). Please try another card.');
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  expect(await orderStatus(page, orderId)).toBe('pending');
});

test("a checkout that cannot load: create() rejects with the checkout's message, which the page shows, and empties its container", async ({
  page,
}) => {
  // The gateway's configuration answers 503 (a stand-in for an outage: page.route, since this spec runs on the shopper
  // product, which takes no fault rules).
  await page.route('**/v1/configuration*', (route) => route.fulfill({ status: 503, json: { error: { message: 'down' } } }));
  await page.goto(`/plain-checkout.html?order=${await orderFor(page)}`);
  await expect(page.locator('#plain-error')).toHaveText('The payment service is not available right now. Please try again.');
  await expect(page.locator('#plain-dropin')).toBeEmpty();
  await expect(payButton(page)).toBeDisabled();
});

test('a form post from another site is refused and the order stays unpaid', async ({ page, baseURL }) => {
  const orderId = await orderFor(page);
  // A page on another origin that posts a (replayed) form to the shop, as a CSRF attack would.
  await page.route('http://attacker.test/**', (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: `<form method="post" action="${baseURL}/api/form-payments">
        <input name="order_id" value="${orderId}"><input name="payment_method_nonce" value="fake-valid-visa-nonce">
        <input name="device_data" value=""><input name="botcheck" value="x"><button>Go</button></form>`,
    }),
  );
  await page.goto('http://attacker.test/');
  const answer = page.waitForResponse((response) => response.url().endsWith('/api/form-payments'));
  await page.getByRole('button', { name: 'Go' }).click();
  const response = await answer;
  expect(response.status()).toBe(403);
  expect(await response.json()).toMatchObject({ code: 'cross_site_request' });
  expect(await orderStatus(page, orderId)).toBe('pending');
});

test('in German the page and the checkout speak German: heading, Pay, a returned error (still German when sent back without the locale), labels, field messages and the sheet message', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  // As the server sends the shopper back after a failed form post (?error=<code>).
  await openPlainCheckout(page, await orderFor(page), '&locale=de-DE&error=botcheck_failed');
  await expect(page.locator('html')).toHaveAttribute('lang', 'de');
  await expect(page).toHaveTitle('Kasse · Kassa Coffee');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Kasse');
  await expect(payButton(page, /bezahlen$/)).toHaveText(/^12,00\s€ bezahlen$/);
  await expect(page.locator('#plain-error')).toHaveText(
    'Wir konnten nicht bestätigen, dass Sie kein Bot sind. Bitte versuchen Sie es erneut.',
  );
  const sheet = page.locator('[data-kassa-checkout]');
  await expect(sheet).toHaveAttribute('lang', 'de');
  await expect(page.locator('iframe[name="kassa-field-number"]')).toHaveAttribute('title', 'Kartennummer');
  await expect(sheet.getByText('Name des Karteninhabers')).toBeVisible();
  await expect(shopper.field('number')).toHaveAttribute('aria-label', 'Kartennummer');
  await expect(shopper.field('expirationDate')).toHaveAttribute('placeholder', 'MM/JJ');

  await shopper.typeInto('number', '4111 1111 1111 1112');
  await payButton(page, /bezahlen$/).click();
  await expect(sheet.getByRole('alert')).toHaveText('Überprüfen Sie Ihre Eingaben und versuchen Sie es erneut.');
  await expect(sheet.getByText('Diese Kartennummer ist ungültig.')).toBeVisible();
  await expect(sheet.getByText('Geben Sie das Ablaufdatum ein.')).toBeVisible();
  // The frame's input carries the same message for assistive technology.
  await expect(shopper.field('number')).toHaveAttribute('aria-description', 'Diese Kartennummer ist ungültig.');

  // Sent back by the server (?error= only, no locale): the tab keeps its language.
  await page.goto(
    page
      .url()
      .replace(/&locale=[^&]*/, '')
      .replace(/error=[^&]*/, 'error=payment_in_progress'),
  );
  await expect(page.locator('#plain-error')).toHaveText(
    'Ihre Zahlung wird noch bearbeitet. Bitte warten Sie einen Moment und drücken Sie dann erneut auf „Bezahlen“.',
  );
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('lang', 'de');
});

test('in Arabic the page and the sheet are laid out right to left in Arabic, the frames follow, and digits stay left to right', async ({
  page,
}, testInfo) => {
  const shopper = new Shopper(page);
  await openPlainCheckout(page, await orderFor(page), '&locale=ar');
  await expect(page.locator('html')).toHaveAttribute('dir', 'rtl');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('الدفع');
  const pay = payButton(page, /^ادفع /);
  await expect(pay).toBeVisible();
  const sheet = page.locator('[data-kassa-checkout]');
  await expect(sheet).toHaveAttribute('dir', 'rtl');
  await expect(sheet).toHaveAttribute('lang', 'ar');
  await expect(sheet.getByText('رقم البطاقة')).toBeVisible();
  await expect(shopper.field('cardholderName')).toHaveAttribute('dir', 'rtl');
  await expect(shopper.field('number')).toHaveAttribute('dir', 'ltr');
  await expect(shopper.field('number')).toHaveAttribute('lang', 'ar');
  expect(await shopper.field('number').evaluate((input) => getComputedStyle(input).textAlign)).toBe('right');

  // Mirrored: labels start at the right edge of their field; expiry (first in reading order) sits right of the CVV.
  const box = async (selector: string) => (await page.locator(selector).boundingBox()) ?? { x: 0, y: 0, width: 0, height: 0 };
  const numberLabel = await box('.kassa-field[data-field="number"] .kassa-field__label');
  const numberBox = await box('.kassa-field[data-field="number"] .kassa-field__box');
  expect(Math.abs(numberLabel.x + numberLabel.width - (numberBox.x + numberBox.width))).toBeLessThan(2);
  expect((await box('.kassa-field[data-field="expirationDate"]')).x).toBeGreaterThan(
    (await box('.kassa-field[data-field="cvv"]')).x,
  );

  await shopper.field('number').fill(cards.visa.number);
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  await pay.click();
  await expect(sheet.getByRole('alert')).toHaveText('تحقّق من البيانات التي أدخلتها وحاول مرة أخرى.');
  await expect(sheet.getByText('أدخل تاريخ انتهاء الصلاحية.')).toBeVisible();
  await page.screenshot({ path: testInfo.outputPath('plain-checkout-rtl.png'), fullPage: true });
  expect(await axeViolations(page, 'right-to-left checkout with errors')).toEqual([]);

  await shopper.field('expirationDate').fill(cards.visa.expiry);
  await shopper.field('cvv').fill(cards.visa.cvv);
  await shopper.field('postalCode').fill(cards.visa.postalCode);
  await pay.click();
  await shopper.seesReceipt();
});

test('the dark theme: the sheet, the fields and the text typed in the frames are dark-theme colours', async ({
  page,
}, testInfo) => {
  const shopper = new Shopper(page);
  await openPlainCheckout(page, await orderFor(page), '&theme=dark');
  const sheet = page.locator('[data-kassa-checkout]');
  expect(await sheet.evaluate((element) => getComputedStyle(element).color)).toBe('rgb(232, 234, 239)');
  const numberBox = page.locator('.kassa-field[data-field="number"] .kassa-field__box');
  expect(await numberBox.evaluate((element) => getComputedStyle(element).backgroundColor)).toBe('rgb(29, 33, 41)');
  // The frames follow (the parent passes the colour through the protocol) and stay transparent (a light frame element).
  expect(await shopper.field('number').evaluate((input) => getComputedStyle(input).color)).toBe('rgb(232, 234, 239)');
  expect(await page.locator('iframe[name="kassa-field-number"]').evaluate((frame) => getComputedStyle(frame).colorScheme)).toBe(
    'light',
  );

  await shopper.field('number').fill(cards.visa.number);
  await payButton(page).click();
  await expect(sheet.getByRole('alert')).toHaveText('Check your entries and try again.');
  await page.screenshot({ path: testInfo.outputPath('plain-checkout-dark.png'), fullPage: true });
  expect(await axeViolations(page, 'dark checkout with errors')).toEqual([]);
});
