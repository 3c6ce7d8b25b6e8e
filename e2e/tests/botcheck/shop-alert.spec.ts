import { join } from 'node:path';
import { test as base, expect } from '@playwright/test';
import { startStandin } from '../../support/botcheck-provider.ts';
import { productIds } from '../../support/catalogue.ts';
import { startProduct, suiteEnv } from '../../support/product.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// The shop alert (packages/server README "Velocity rules"): while it is raised, payments and card saves need the
// merchant's interactive bot-check (BOTCHECK_ALERT_PROVIDER, here hCaptcha through its local stand-in: no internet
// here) instead of the proof of work a script buys with CPU. A Kassa of its own, where one decline raises the alert
// (SHOP_ALERT_DECLINES=1, its rules at their own sizes: no other spec's shoppers share it).
// Test-scoped (the file has one test): a worker-scoped fixture of the spec's own made Playwright start a worker process
// and a browser for this file alone.
const test = base.extend<{ alertShop: string }>({
  alertShop: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const standin = await startStandin();
      const { scriptUrl, verifyUrl } = standin.providers.hcaptcha;
      const product = await startProduct({
        ...suiteEnv,
        BOTCHECK_ALERT_PROVIDER: 'hcaptcha',
        BOTCHECK_ALERT_SITE_KEY: standin.keys.siteKey,
        BOTCHECK_ALERT_SECRET_KEY: standin.keys.secretKey,
        BOTCHECK_ALERT_SCRIPT_URL: scriptUrl,
        BOTCHECK_ALERT_VERIFY_URL: verifyUrl,
        VELOCITY_LIMIT_FACTOR: '1',
        SHOP_ALERT_DECLINES: '1',
        // The web app the run's first Kassa built.
        WEB_DIST: join(import.meta.dirname, '..', '..', '..', 'packages', 'web', 'dist'),
      });
      await use(product.shopUrl);
      await product.stop();
      standin.stop();
    },
    { timeout: 180_000 },
  ],
  baseURL: async ({ alertShop }, use) => use(alertShop),
});

test("a checkout opened before a decline raises the shop alert: Pay's proof of work is refused, Pay again shows the merchant's interactive widget; ticked, it pays", async ({
  page,
  browser,
  alertShop,
}) => {
  const shopper = new Shopper(page);
  const challenges: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/botcheck/challenge') challenges.push(request.url());
  });
  // Before the alert: the checkout session names the proof of work.
  await shopper.startCheckoutOfNewOrder();

  // Meanwhile another shopper's card is declined (the sandbox declines the amount): the shop's first decline.
  const elsewhere = await browser.newContext({ baseURL: alertShop });
  const other = new Shopper(await elsewhere.newPage());
  await other.startCheckoutOfNewOrder(productIds.declinedByAmount);
  await other.payWithCard(cards.visa);
  await other.seesPaymentError('Your card was declined (Do Not Honor). Please try another card.');
  await elsewhere.close();

  // The page solved a proof of work as it had been told; the server now wants the interactive check.
  await shopper.payWithCard(cards.visa);
  await shopper.seesPaymentError('We could not confirm that you are not a bot. Please try again.');
  expect(challenges).toHaveLength(1);

  await shopper.pay();
  const box = page.getByRole('dialog', { name: 'Bot check' });
  await expect(box).toContainText('This shop is seeing unusual card activity');
  const tick = box
    .frameLocator('iframe[title="Widget containing checkbox for hCaptcha security challenge"]')
    .getByRole('checkbox', { name: "I'm not a robot" });
  await expect(tick).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('shop-alert-widget.png') });
  await tick.click();
  await shopper.seesReceipt();
  await expect(box).toHaveCount(0);
  // No proof of work was asked for the second Pay.
  expect(challenges).toHaveLength(1);
});
