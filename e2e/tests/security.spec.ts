import { expect, type Page, test } from '@playwright/test';
import { catalogue } from '../support/catalogue.ts';
import { cards, Shopper } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';

test('every page is served under a strict Content-Security-Policy and a whole payment runs without a violation; the receipt has no accessibility violations', async ({
  page,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');

  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesReceipt();
  expect(violations).toEqual([]);
  // The receipt's axe run here, not after a payment of its own (a payment costs about 4 s of CPU); the shop's and the
  // checkout's are the next test's, so each test stays well inside the time limit on a loaded machine.
  expect(await axeViolations(page, 'receipt')).toEqual([]);
});

async function axeViolations(page: Page, state: string): Promise<string[]> {
  return (await axeOn(page).analyze()).violations.map((violation) => `${state}: ${violation.id}: ${violation.help}`);
}

test('the shop and the checkout (idle and with every error showing) have no accessibility violations', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.visitShop();
  expect(await axeViolations(page, 'shop')).toEqual([]);
  await shopper.startCheckout(catalogue.everyday);
  expect(await axeViolations(page, 'checkout')).toEqual([]);
  await shopper.pay();
  await expect(page.getByText('Check your entries and try again.')).toBeVisible();
  expect(await axeViolations(page, 'checkout with errors')).toEqual([]);
});
