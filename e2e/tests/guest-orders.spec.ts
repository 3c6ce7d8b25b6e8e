import { expect, test } from '@playwright/test';
import { Shopper } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';

// Issue 9: orders made in a browser's guest session joined the account of whoever signed in there next. The sign-in
// page now lists them and asks; nothing moves unless the shopper ticks the box.

/**
 * A guest's order, made through the API the shop's cart uses (this browser's cookie: the shop's pages are other specs'
 * subject), then the sign-in page; the order's checkout page.
 */
async function guestOrderThenSignInPage(shopper: Shopper): Promise<string> {
  const order = await shopper.ordersThroughApi();
  await shopper.page.goto('/sign-in');
  return `/checkout/${order.id}`;
}

test('a guest order stays out of the account when the shopper signs in without ticking the box', async ({ page }) => {
  const shopper = new Shopper(page);
  const checkoutUrl = await guestOrderThenSignInPage(shopper);
  const consent = page.getByRole('group', { name: 'Orders made on this device before signing in' });
  await expect(consent.getByRole('listitem')).toHaveCount(1);
  await expect(consent.getByRole('listitem')).toContainText(/^Order \d+, /);
  await expect(consent.getByRole('checkbox', { name: /Add these orders to my account/ })).not.toBeChecked();
  expect(
    await axeOn(page)
      .analyze()
      .then((result) => result.violations.map((v) => v.id)),
  ).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('sign-in-guest-orders.png') });

  await page.getByLabel('Email').fill('shopper@kassa.test');
  await page.getByLabel('Password').fill('kassa-demo-shopper');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/^Signed in as /)).toBeVisible();
  await page.goto(checkoutUrl);
  await expect(page.getByRole('alert')).toHaveText('We could not find this order.');
});

test('a guest order joins the account when the shopper ticks the box, and the checkout goes on', async ({ page }) => {
  const shopper = new Shopper(page);
  const checkoutUrl = await guestOrderThenSignInPage(shopper);
  await page.getByRole('checkbox', { name: /Add these orders to my account/ }).check();
  await page.getByLabel('Email').fill('shopper@kassa.test');
  await page.getByLabel('Password').fill('kassa-demo-shopper');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText(/^Signed in as /)).toBeVisible();
  await page.goto(checkoutUrl);
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
});

test('the sign-in page asks nothing when this browser made no guest order', async ({ page }) => {
  await page.goto('/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByRole('checkbox')).toHaveCount(0);
});
