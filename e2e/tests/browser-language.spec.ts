import { expect, test } from '@playwright/test';
import { catalogue } from '../support/catalogue.ts';
import { Merchant } from '../support/merchant.ts';
import { cards, Shopper } from '../support/shopper.ts';

// Chromium on Linux under LANG=C or POSIX reports navigator.language "en-US@posix", a tag Intl refuses. The navigator's
// getters are replaced before the page's scripts run: Playwright's `locale: 'en-US@posix'` would make Chromium send that
// tag as an Accept-Language header the page set, which a cross-origin request must then clear with a preflight (the
// gateway's client API refuses it), where a real browser's own Accept-Language needs none.
test.beforeEach(async ({ page }) => {
  await page.addInitScript(`
    Object.defineProperty(Navigator.prototype, 'language', { get: () => 'en-US@posix' });
    Object.defineProperty(Navigator.prototype, 'languages', { get: () => ['en-US@posix'] });
  `);
});

test('a browser reporting the language en-US@posix buys in the shop, pays with a card, and its merchant sees the dashboard charts', async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  await shopper.payWithCard(cards.visa);
  await shopper.seesReceipt();

  await new Merchant(page).signsIn();
  await expect(page.locator('.chart canvas').first()).toBeVisible();
  expect(pageErrors).toEqual([]);
});
