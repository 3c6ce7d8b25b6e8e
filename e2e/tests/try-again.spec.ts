import { expect, test, type Browser, type Page, type Route } from '@playwright/test';
import { signInAsAdmin } from '../support/admin-api.ts';
import { axeOn } from '../support/axe.ts';
import { requestsOnTheirWay } from '../support/requests-on-their-way.ts';
import { cards, Shopper, TEST_VISA_NONCE, uniqueEmail } from '../support/shopper.ts';

// A page whose data did not come says why and, when another try may answer (no answer, a 429, a 5xx), offers Try again,
// which loads it: the dashboard's lists, a payment's page and the overview, the account's payment methods and
// subscriptions. The failures are the network's, made by Playwright's routing (a request held past its deadline, or
// its connection cut); the shop, the server and the gateway are the real ones, and Try again's request goes through.

const NETWORK_ERROR = 'Network error. Please try again.';

/**
 * Cuts the connection of the page's first `method` request to a URL matching `url`, and lets the later ones through;
 * how many were asked (the one cut included).
 */
async function cutFirst(page: Page, url: RegExp, method = 'GET'): Promise<{ asked: number }> {
  const seen = { asked: 0 };
  await page.route(url, async (route) => {
    if (route.request().method() !== method) return route.fallback();
    seen.asked += 1;
    return seen.asked === 1 ? route.abort('connectionreset') : route.fallback();
  });
  return seen;
}

/**
 * The page says the network failed and offers Try again (axe finds nothing in what it shows); presses it from the
 * keyboard. The button goes with the message, so focus moves to the page's main region, as after a navigation (it fell
 * to the body before).
 */
async function triesAgain(page: Page): Promise<void> {
  await expect(page.getByRole('alert')).toHaveText(NETWORK_ERROR);
  const tryAgain = page.getByRole('button', { name: 'Try again' });
  await expect(tryAgain).toBeVisible();
  const { violations } = await axeOn(page).include('.load-failed').analyze();
  expect(violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
  await tryAgain.focus();
  await page.keyboard.press('Enter');
  await expect(page.locator('#main')).toBeFocused();
}

/** A guest's paid order of one mug (€12.00), through the shop's API in a browser of its own: its number and payment. */
async function guestPays(browser: Browser): Promise<{ orderNumber: number; paymentId: string }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const order = await new Shopper(page).paysThroughApi(cards.visa);
  const { order: paid } = (await (await page.request.get(`/api/orders/${order.id}`)).json()) as {
    order: { payment: { id: string } };
  };
  await context.close();
  return { orderNumber: order.number, paymentId: paid.payment.id };
}

test('a dashboard list the network holds: at its deadline "Network error. Please try again." with Try again, which loads the list', async ({
  page,
  browser,
}) => {
  const { orderNumber } = await guestPays(browser);
  await page.clock.install();
  const requests = requestsOnTheirWay(page);
  await signInAsAdmin(page.request);
  let held = true;
  let asked = 0;
  const heldRoutes: Route[] = [];
  await page.route(/\/api\/admin\/payments\?/, (route) => {
    asked += 1;
    if (!held) return route.fallback();
    // Held: no answer at all, as a dead connection gives.
    heldRoutes.push(route);
  });
  await page.goto(`/admin/payments?orderNumber=${orderNumber}`);
  await expect.poll(() => asked).toBe(1);
  await expect(page.getByText('Working…')).toBeVisible();
  await requests.untilOnly(heldRoutes);
  // Past the deadline of a call the server answers from its own database (web api/client.ts DEADLINE_MS, 15 s).
  await page.clock.fastForward(16_000);
  await expect(page.getByText('Working…')).toHaveCount(0);
  held = false;
  await triesAgain(page);
  const rows = page.getByRole('region', { name: 'Payments, in the order chosen' }).locator('tbody tr');
  await expect(rows).toHaveCount(1);
  await expect(rows).toContainText(String(orderNumber));
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(asked).toBe(2);
});

test("a payment's page whose load lost its connection says so with Try again, which loads the payment; a payment that does not exist is said without Try again", async ({
  page,
  browser,
}) => {
  const { paymentId } = await guestPays(browser);
  await signInAsAdmin(page.request);
  const detail = await cutFirst(page, new RegExp(`/api/admin/payments/${paymentId}$`));
  await page.goto(`/admin/payments/${paymentId}`);
  await expect(page.getByRole('link', { name: 'All payments' })).toBeVisible();
  await triesAgain(page);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/€12\.00 EUR\s*Succeeded/);
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(detail.asked).toBe(2);

  // The server's answer that there is no such payment: another try would say the same.
  await page.goto('/admin/payments/no-such-payment');
  await expect(page.getByRole('alert')).toHaveText('This payment does not exist.');
  await expect(page.getByRole('button', { name: 'Try again' })).toHaveCount(0);
});

test('the overview whose load lost its connection says so with Try again, which loads its figures', async ({ page }) => {
  await signInAsAdmin(page.request);
  const overview = await cutFirst(page, /\/api\/admin\/overview\?/);
  await page.goto('/admin');
  await triesAgain(page);
  await expect(page.locator('.kpis').getByText('Gross volume')).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(overview.asked).toBe(2);
});

/** A new shopper with a saved Visa (through the API), on the shop's page. */
async function shopperWithCard(page: Page): Promise<Shopper> {
  const shopper = new Shopper(page);
  await shopper.signUpThroughApi('Katherine Try', uniqueEmail('try-again'), 'try-again-pages-2026');
  await shopper.savesCardThroughApi(TEST_VISA_NONCE);
  await shopper.visitShop();
  return shopper;
}

test('payment methods whose list lost its connection: "Network error. Please try again." with Try again, which lists the saved card', async ({
  page,
}) => {
  const shopper = await shopperWithCard(page);
  const methods = await cutFirst(page, /\/api\/payment-methods$/);
  await shopper.openAccount('Payment methods');
  await triesAgain(page);
  await expect(shopper.accountRow(/^Visa ending in 1881/)).toContainText('Default');
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(methods.asked).toBe(2);
});

test('subscriptions whose list lost its connection: "Network error. Please try again." with Try again, which shows them and the plans on offer with the saved card', async ({
  page,
}) => {
  const shopper = await shopperWithCard(page);
  const subscriptions = await cutFirst(page, /\/api\/subscriptions$/);
  await shopper.openAccount('Subscriptions');
  await triesAgain(page);
  await expect(page.getByText('No subscriptions yet.')).toBeVisible();
  await expect(page.getByRole('region', { name: 'Subscribe and save' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveCount(0);
  expect(subscriptions.asked).toBe(2);
});
