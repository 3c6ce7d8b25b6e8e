import { expect, test } from '@playwright/test';
import { cards, Shopper } from '../support/shopper.ts';

test('each page has its own title, and navigating moves focus to the new page', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.visitShop();
  await expect(page).toHaveTitle('Shop · Kassa Coffee');
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page).toHaveTitle('Your cart · Kassa Coffee');
  await expect(page.getByRole('main')).toBeFocused();
  await page.goto('/no-such-page');
  await expect(page).toHaveTitle('This page does not exist. · Kassa Coffee');
});

test('a keyboard user can skip straight to the content', async ({ page }) => {
  await page.goto('/');
  // As a person does, once the page shows: since the app's modules load after the entry (2bc1633), the load event
  // can come before the first render, and a Tab then would land on no link.
  await expect(page.getByRole('main')).toBeVisible();
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test("a paid order's checkout page points to its receipt", async ({ page }) => {
  // Paid through the API the checkout uses: paying in the checkout is other specs' subject.
  const { id: orderId } = await new Shopper(page).paysThroughApi(cards.visa);
  await page.goto(`/checkout/${orderId}`);
  await expect(page.getByRole('status')).toContainText('This order is already paid.');
  await page.getByRole('link', { name: 'View the receipt' }).click();
  await expect(page).toHaveURL(new RegExp(`/orders/${orderId}/receipt$`));
});
