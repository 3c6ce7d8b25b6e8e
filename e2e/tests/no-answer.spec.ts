import { expect, test, type Page, type Route } from '@playwright/test';
import { requestsOnTheirWay } from '../support/requests-on-their-way.ts';
import { cards, Shopper } from '../support/shopper.ts';

// Requests the network holds: Playwright's routing keeps them unanswered (a proxy or a dead connection that never
// answers cannot be made otherwise from a test); the shop, the server, the frames and the gateway are the real ones.
// The page's clock (installed before the page loads) is run forward past the calls' deadlines (web api/client.ts
// DEADLINE_MS: 90 s for a call that may wait for the gateway), whose timers are the page's.

/** The server's longest wait for one gateway call (GATEWAY_TIMEOUT_SECONDS at its maximum, 60). */
const SERVER_GATEWAY_WAIT_MS = 60_000;
/** From there to past the web app's deadline for a call that may wait for the gateway (90 s). */
const PAST_DEADLINE_MS = 31_000;

/** Holds the page's requests matching `url` (with `method`) while `held()` says so; they get no answer at all. */
async function hold(page: Page, url: string, method: string, held: () => boolean, onHeld?: (route: Route) => Promise<void>) {
  const asked: Route[] = [];
  await page.route(url, async (route) => {
    if (route.request().method() !== method || !held()) return route.fallback();
    asked.push(route);
    await onHeld?.(route);
  });
  return asked;
}

test('a checkout whose session the network holds: "Loading…" past the server\'s longest gateway wait, then at the deadline "Network error. Please try again." with Try again, which loads the card form', async ({
  page,
}) => {
  await page.clock.install();
  const requests = requestsOnTheirWay(page);
  let held = true;
  const sessions = await hold(page, '**/api/orders/*/checkout-session', 'POST', () => held);
  const shopper = new Shopper(page);
  await shopper.openCheckoutOfNewOrder();
  await expect.poll(() => sessions.length).toBe(1);
  await requests.untilOnly(sessions);
  await page.clock.fastForward(SERVER_GATEWAY_WAIT_MS);
  await expect(page.getByText('Loading…')).toBeVisible();
  await page.clock.fastForward(PAST_DEADLINE_MS);
  await expect(page.getByRole('alert')).toHaveText('Network error. Please try again.');
  await expect(page.getByText('Loading…')).toHaveCount(0);
  held = false;
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  await shopper.payWithCard(cards.visa);
  await shopper.seesReceipt();
});

test('a payment the network holds on its way: "Paying…" past the server\'s longest gateway wait, then at the deadline "Network error. Please try again." with the card kept; Pay again pays under the same Idempotency-Key', async ({
  page,
}) => {
  await page.clock.install();
  const requests = requestsOnTheirWay(page);
  const shopper = new Shopper(page);
  const keys = shopper.recordPaymentRequests();
  let held = true;
  const payments = await hold(page, '**/api/orders/*/payments', 'POST', () => held);
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.visa);
  await expect.poll(() => payments.length).toBe(1);
  await requests.untilOnly(payments);
  await page.clock.fastForward(SERVER_GATEWAY_WAIT_MS);
  await expect(page.getByRole('button', { name: 'Paying…' })).toHaveAttribute('aria-busy', 'true');
  await page.clock.fastForward(PAST_DEADLINE_MS);
  await shopper.seesPaymentError('Network error. Please try again.');
  await expect(shopper.payButton()).toHaveAttribute('aria-busy', 'false');
  await expect(shopper.field('number')).not.toHaveValue('');
  held = false;
  await shopper.pay();
  await shopper.seesReceipt();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
});

test('a payment the server made whose answer the network holds: at the deadline the page finds the order paid and shows the receipt; one payment, one request', async ({
  page,
}) => {
  await page.clock.install();
  const requests = requestsOnTheirWay(page);
  const shopper = new Shopper(page);
  const keys = shopper.recordPaymentRequests();
  const charged: Array<Promise<unknown>> = [];
  // The request goes to the server (which charges the card); its answer never comes back to the page.
  const payments = await hold(
    page,
    '**/api/orders/*/payments',
    'POST',
    () => true,
    async (route) => {
      const answer = route.fetch();
      charged.push(answer);
      await answer;
    },
  );
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.visa);
  await expect.poll(() => charged.length).toBe(1);
  expect((await (charged[0] as Promise<{ status(): number }>)).status()).toBe(201);
  await requests.untilOnly(payments);
  await page.clock.fastForward(SERVER_GATEWAY_WAIT_MS);
  await expect(page.getByRole('button', { name: 'Paying…' })).toHaveAttribute('aria-busy', 'true');
  await page.clock.fastForward(PAST_DEADLINE_MS);
  const orderId = await shopper.seesReceipt();
  expect(payments).toHaveLength(1);
  expect(keys).toHaveLength(1);
  const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as {
    order: { status: string; payments: Array<{ status: string }> };
  };
  expect(order.status).toBe('paid');
  expect(order.payments.map((payment) => payment.status)).toEqual(['succeeded']);
});
