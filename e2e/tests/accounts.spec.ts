import { expect, test } from '@playwright/test';
import { catalogue } from '../support/catalogue.ts';
import { cards, DEMO_SAVED_CARD, Shopper } from '../support/shopper.ts';

test('a new shopper signs up and pays as a gateway customer', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.signUp('Margaret Hamilton', `margaret-${Date.now()}@kassa.test`, 'apollo-guidance-11');
  await shopper.startCheckout(catalogue.everyday);
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesReceipt();
});

test('the demo shopper signs in, pays, signs out, and the order is then out of reach', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.signIn('shopper@kassa.test', 'kassa-demo-shopper');
  await shopper.startCheckout(catalogue.everyday);
  // The demo shopper starts with a saved card (seeded at start): it pays without typing.
  await shopper.payWithSavedCard(DEMO_SAVED_CARD);
  const orderId = await shopper.seesReceipt();

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('link', { name: 'Sign in' })).toBeVisible();
  await page.goto(`/orders/${orderId}/receipt`);
  await expect(page.getByRole('alert')).toHaveText('We could not find this order.');
});

test("a guest's order is invisible to another browser", async ({ page, browser }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  const checkoutUrl = page.url();

  const stranger = await browser.newContext();
  const strangerPage = await stranger.newPage();
  await strangerPage.goto(checkoutUrl);
  await expect(strangerPage.getByRole('alert')).toHaveText('We could not find this order.');
  const response = await strangerPage.request.get(checkoutUrl.replace('/checkout/', '/api/orders/'));
  expect(response.status()).toBe(404);
  expect(response.headers()['content-type']).toContain('application/problem+json');
  await stranger.close();
});

test('a wrong password is refused with a clear message', async ({ page }) => {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill('shopper@kassa.test');
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('alert')).toHaveText('That email and password do not match an account.');
});
