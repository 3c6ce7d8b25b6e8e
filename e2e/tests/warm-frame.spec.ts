import { expect, type Page, test } from '@playwright/test';
import { axeOn } from '../support/axe.ts';
import { catalogue } from '../support/catalogue.ts';
import { currentProduct } from '../support/products.ts';
import { cards, Shopper } from '../support/shopper.ts';

// The cart loads the gateway's card field page ahead in a hidden frame, so the checkout that "Go to checkout" opens
// finds the gateway origin's renderer running and the card frames' files cached (issue 10; web warm-card-fields.ts).

/** The page's Content-Security-Policy violations, gathered from its first document on. */
async function gatherCspViolations(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as { kassaCspViolations?: string[] }).kassaCspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) => seen.push(`${event.violatedDirective} ${event.blockedURI}`));
  });
  return () => page.evaluate(() => (window as { kassaCspViolations?: string[] }).kassaCspViolations ?? []);
}

/** The shop, a mug in the cart, the cart page. */
async function openCart(shopper: Shopper): Promise<void> {
  await shopper.visitShop();
  await shopper.addToCart(catalogue.everyday);
  await shopper.page.getByRole('link', { name: /^Cart/ }).click();
  await expect(shopper.page.getByRole('button', { name: 'Go to checkout' })).toBeEnabled();
}

test('the cart loads the card fields page ahead in a hidden frame, out of reach, within the CSP; it goes a while after the checkout', async ({
  page,
}) => {
  // The page's timers run on Playwright's clock, so the frame's last seconds are run forward, not waited out.
  await page.clock.install();
  const violations = await gatherCspViolations(page);
  const fieldsPage = `${currentProduct().sandboxUrl}/hosted-fields/frame.html`;
  const shopper = new Shopper(page);
  await shopper.visitShop();
  await expect(page.locator('iframe[data-kassa-warm-frame]')).toHaveCount(0);
  const warmLoaded = page.waitForResponse((answer) => answer.url() === fieldsPage && answer.status() === 200);
  await shopper.addToCart(catalogue.everyday);
  await page.getByRole('link', { name: /^Cart/ }).click();
  await warmLoaded;
  const warm = page.locator('iframe[data-kassa-warm-frame]');
  await expect(warm).toHaveAttribute('src', fieldsPage);
  await expect(warm).toBeHidden();
  await expect(warm).toHaveAttribute('aria-hidden', 'true');
  await expect(warm).toHaveAttribute('tabindex', '-1');
  expect((await axeOn(page).analyze()).violations).toEqual([]);

  await page.getByRole('button', { name: 'Go to checkout' }).click();
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  // Still there as the checkout's frames load; then let go.
  await expect(warm).toHaveCount(1);
  await shopper.typeInto('number', cards.visa.number);
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  await page.clock.fastForward(10_000);
  await expect(warm).toHaveCount(0);
  expect(await violations()).toEqual([]);
});

test('a shopper back on the cart within its 10 s keeps the one warm frame: not loaded again, not let go while they read', async ({
  page,
}) => {
  await page.clock.install();
  let loads = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/hosted-fields/frame.html')) loads += 1;
  });
  const shopper = new Shopper(page);
  await openCart(shopper);
  const warm = page.locator('iframe[data-kassa-warm-frame]');
  await expect(warm).toHaveCount(1);
  // To the shop for another look (the app's navigation: the frame outlives the cart page), and back before it goes.
  await page.getByRole('link', { name: 'Shop', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Good coffee, made at home', level: 1 })).toBeVisible();
  await page.clock.fastForward(5_000);
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByRole('button', { name: 'Go to checkout' })).toBeEnabled();
  // Past the 10 s after the shopper first left the cart: still there, as long as they are on it.
  await page.clock.fastForward(10_000);
  await expect(warm).toHaveCount(1);
  expect(loads).toBe(1);
});

test('the checkout still loads from the cart when the warm frame cannot', async ({ page }) => {
  // The first request for the card fields' page is the warm frame's (the cart's, before any checkout): refused.
  let asked = 0;
  await page.route('**/hosted-fields/frame.html', async (route) => {
    asked += 1;
    if (asked === 1) await route.abort('connectionrefused');
    else await route.continue();
  });
  const shopper = new Shopper(page);
  await openCart(shopper);
  await expect.poll(() => asked).toBe(1);
  await page.getByRole('button', { name: 'Go to checkout' }).click();
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  await shopper.typeInto('number', cards.visa.number);
  await expect(shopper.field('number')).toHaveValue('4111 1111 1111 1111');
  expect(asked).toBeGreaterThan(1);
});

test("from the cart, the gateway's configuration is asked for once, as the session answers, before the number's frame is made", async ({
  page,
}) => {
  // When the number's frame went into the page, by the page's clock.
  await page.addInitScript(() => {
    const observer = new MutationObserver(() => {
      if (document.querySelector("iframe[name='kassa-field-number']") === null) return;
      (window as { kassaNumberFrameAt?: number }).kassaNumberFrameAt = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true });
  });
  const shopper = new Shopper(page);
  await openCart(shopper);
  await page.getByRole('button', { name: 'Go to checkout' }).click();
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  const { asked, frameAt } = await page.evaluate(() => ({
    asked: performance
      .getEntriesByType('resource')
      .filter((entry) => new URL(entry.name).pathname.endsWith('/client_api/v1/configuration'))
      .map((entry) => entry.startTime),
    frameAt: (window as { kassaNumberFrameAt?: number }).kassaNumberFrameAt ?? Number.NaN,
  }));
  expect(asked).toHaveLength(1);
  expect(asked[0]).toBeLessThan(frameAt);
});
