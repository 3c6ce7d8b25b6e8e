import { expect, test, type Page } from '@playwright/test';
import { cards, Shopper } from '../support/shopper.ts';

// The connection between the browser and the shop is cut once with Playwright's routing: a dropped connection
// cannot be caused otherwise from a test; the shop, the server, the frames and the gateway are the real ones.
async function cutOnce(page: Page, url: string | RegExp): Promise<void> {
  let cut = false;
  await page.route(url, (route) => {
    if (cut) return route.continue();
    cut = true;
    return route.abort('connectionreset');
  });
}

test('after a network error, Pay again pays with the card as typed, under the same Idempotency-Key', async ({ page }) => {
  const shopper = new Shopper(page);
  const keys = shopper.recordPaymentRequests();
  await cutOnce(page, '**/api/orders/*/payments');
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.visa);
  await shopper.seesPaymentError('Network error. Please try again.');
  // Nothing to retype: the card is still in the form.
  await expect(shopper.field('number')).not.toHaveValue('');
  await expect(shopper.field('cvv')).not.toHaveValue('');
  await shopper.pay();
  await shopper.seesReceipt();
  expect(keys).toHaveLength(2);
  expect(keys[1]).toBe(keys[0]);
});

test('after the bot-check could not load, Pay again pays without retyping the card', async ({ page }) => {
  const shopper = new Shopper(page);
  // The challenge URL names its action in the query (?action=payment): match the path whatever follows. Cut until the
  // error is shown: the proof of work is first asked for while the card is typed (solved ahead of Pay), then at Pay.
  let reachable = false;
  await page.route(/\/api\/botcheck\/challenge(\?|$)/, (route) =>
    reachable ? route.continue() : route.abort('connectionreset'),
  );
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.mastercard);
  await shopper.seesPaymentError('The bot-check is unavailable right now. Please try again.');
  reachable = true;
  await shopper.pay();
  await shopper.seesReceipt();
  await expect(page.getByText('Paid with MasterCard ending in 4444')).toBeVisible();
});
