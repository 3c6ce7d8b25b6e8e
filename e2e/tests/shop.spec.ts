import { join } from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { catalogue } from '../support/catalogue.ts';
import { webDist } from '../../scripts/build-web.ts';
import { startProduct } from '../support/product.ts';
import { cards, DEMO_SAVED_CARD, Shopper } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';
import { headerLayout, opensAccountMenu, tabsThroughAccountMenu } from '../support/header.ts';

const axeViolations = async (page: Page, state: string) =>
  (await axeOn(page).analyze()).violations.map((violation) => `${state}: ${violation.id}: ${violation.help}`);

/** The looks of the page's text links (links and link-like buttons in the content, not buttons or navigation). */
const textLinkLooks = (page: Page, state: string) =>
  page.locator('main a:not(.button), main .link-button').evaluateAll(
    (links, where) =>
      links.map((link) => {
        const style = getComputedStyle(link);
        return { where, text: link.textContent?.trim(), look: `${style.color} ${style.textDecorationLine} ${style.fontWeight}` };
      }),
    state,
  );

test('the sandbox banner gives the test card and the declining amount; product descriptions do not; every product has its picture, and the logo loads', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await shopper.visitShop();
  // npm start runs against the sandbox gateway, so the server says so and the banner shows on every page.
  await expect(shopper.sandboxBanner()).toContainText('4111 1111 1111 1111');
  await expect(shopper.sandboxBanner()).toContainText('2,000.00 is declined');
  await expect(page.locator('.product-description')).toHaveCount(4);
  for (const description of await page.locator('.product-description').allTextContents()) {
    expect(description).not.toMatch(/sandbox|declin|test card/i);
  }
  const pictures = page.locator('.product-image, .brand-logo');
  await expect(pictures).toHaveCount(5);
  for (const picture of await pictures.all()) {
    await expect.poll(() => picture.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth > 0)).toBe(true);
    expect(await picture.getAttribute('src')).toMatch(/^\/(products\/[a-z-]+|logo)\.svg$/);
  }
  await shopper.startCheckoutOfNewOrder();
  await expect(shopper.sandboxBanner()).toBeVisible();
});

test('no sandbox banner when the server says payments are real', async ({ page }) => {
  // A production gateway cannot run here: the server's answer is replaced, the rest of the shop is real.
  await page.route('**/api/config', (route) => route.fulfill({ json: { sandbox: false } }));
  const shopper = new Shopper(page);
  await shopper.visitShop();
  await expect(page.locator('.product-card')).toHaveCount(4);
  await expect(shopper.sandboxBanner()).toHaveCount(0);
});

test('signing in from the checkout, keeping the order, comes back to the same order, which the shopper then pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  const checkoutUrl = page.url();
  await shopper.signInFromCheckout('shopper@kassa.test', 'kassa-demo-shopper');
  await expect(page).toHaveURL(checkoutUrl);
  await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  // Signed in, the checkout no longer offers to sign in.
  await expect(page.getByRole('region', { name: 'Payment' }).getByRole('link', { name: 'Sign in' })).toHaveCount(0);
  await shopper.payWithSavedCard(DEMO_SAVED_CARD);
  const orderId = await shopper.seesReceipt();
  expect(checkoutUrl).toContain(orderId);
});

test.describe('on a 390 x 844 phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('Pay is in view without scrolling, the summary folds to its total, and no page scrolls sideways', async ({ page }) => {
    const shopper = new Shopper(page);
    await shopper.visitShop();
    const noSidewaysScroll = () => page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth);
    expect(await noSidewaysScroll()).toBe(true);
    await shopper.startCheckout(catalogue.declinedByAmount);
    expect(await noSidewaysScroll()).toBe(true);
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const pay = await shopper.payButton().boundingBox();
    expect(pay).not.toBeNull();
    expect((pay?.y ?? 0) + (pay?.height ?? 0)).toBeLessThanOrEqual(844);

    // The order lines are one tap away.
    const lines = page.locator('#summary-details');
    await expect(lines).toBeHidden();
    await page.getByRole('button', { name: /^Show order summary/ }).click();
    await expect(lines).toBeVisible();
    await expect(lines).toContainText(catalogue.declinedByAmount);
    expect(await axeViolations(page, 'phone checkout')).toEqual([]);

    await shopper.payWithCard(cards.visa);
    await shopper.seesPaymentError('Your card was declined (Do Not Honor). Please try another card.');
    expect(await noSidewaysScroll()).toBe(true);
  });
});

test('on narrow phones the header fits, signed out and signed in: the logo whole, nothing under the Cart link, no sideways scroll', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const header = page.getByRole('banner');
  // From 384 px down the shop's name gives way to the logo alone; under 384 px a signed-in shopper's Account and Sign
  // out sit behind the account menu's button (at 320 px they went to a second row).
  const expected = { logoWidth: 28, brandClearOfCart: true, toolsBesideNav: true, sidewaysScroll: false };
  for (const signedIn of [false, true]) {
    if (signedIn) await shopper.signInThroughApi('shopper@kassa.test', 'kassa-demo-shopper');
    for (const width of [390, 384, 360, 320]) {
      await page.setViewportSize({ width, height: 700 });
      await shopper.visitShop();
      // The account's part of the header is drawn once the session has loaded, which the shop's heading does not wait for.
      const accountPart = !signedIn
        ? header.getByRole('link', { name: 'Sign in' })
        : header.getByRole('button', { name: width < 384 ? 'Account menu' : 'Sign out' });
      await expect(accountPart).toBeVisible();
      await expect(header.getByRole('button', { name: 'Account menu' })).toBeVisible({ visible: signedIn && width < 384 });
      expect({ width, signedIn, ...(await headerLayout(page)) }).toEqual({ width, signedIn, ...expected });
      await page.screenshot({ path: test.info().outputPath(`header-${signedIn ? 'signed-in' : 'signed-out'}-${width}.png`) });
    }
  }
});

test("on a narrow phone a signed-in shopper's account menu: who is signed in, Escape gives focus back, keyboard alone, Sign out", async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await page.setViewportSize({ width: 320, height: 700 });
  await shopper.signInThroughApi('shopper@kassa.test', 'kassa-demo-shopper');
  await shopper.visitShop();
  const header = page.getByRole('banner');
  const menuButton = header.getByRole('button', { name: 'Account menu' });
  const signOut = header.getByRole('button', { name: 'Sign out' });
  await expect(signOut).toBeHidden();

  await opensAccountMenu(page, { name: 'Demo Shopper', email: 'shopper@kassa.test' });
  await page.screenshot({ path: test.info().outputPath('account-menu-open-320.png') });
  expect(await axeViolations(page, 'the account menu open')).toEqual([]);
  await page.keyboard.press('Escape');
  await expect(signOut).toBeHidden();
  await expect(menuButton).toBeFocused();

  await tabsThroughAccountMenu(page);
  // Its Account item leads to the shopper's orders, and closes it.
  await page.keyboard.press('Space');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { name: 'Orders', level: 1 })).toBeVisible();
  await expect(signOut).toBeHidden();
  await menuButton.click();
  await signOut.click();
  await expect(header.getByRole('link', { name: 'Sign in' })).toBeVisible();
  expect((await (await page.request.get('/api/session')).json()).account).toBeNull();
});

test.describe('in the dark', () => {
  test.use({ colorScheme: 'dark' });

  test("the shop follows the system's dark theme, the checkout follows the shop, and a choice is remembered", async ({
    page,
  }) => {
    const shopper = new Shopper(page);
    await shopper.visitShop();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
    await expect(shopper.themeToggle()).toHaveAttribute('aria-pressed', 'true');
    expect(await axeViolations(page, 'dark shop')).toEqual([]);

    await shopper.startCheckout(catalogue.everyday);
    const checkoutColours = async () => ({
      text: await page.locator('.kassa-checkout').evaluate((element) => getComputedStyle(element).color),
      // The field background the checkout's own rules resolve (a probe, so the test does not depend on its markup).
      field: await page.locator('.kassa-checkout').evaluate((element) => {
        const probe = element.appendChild(document.createElement('span'));
        probe.style.backgroundColor = 'var(--kassa-color-background)';
        const colour = getComputedStyle(probe).backgroundColor;
        probe.remove();
        return colour;
      }),
    });
    expect(await checkoutColours()).toEqual({ text: 'rgb(236, 238, 241)', field: 'rgb(28, 31, 37)' });
    // The card frames stay transparent over the dark form (a frame whose colour scheme differs is painted opaque).
    expect(await page.locator('iframe[name="kassa-field-number"]').evaluate((frame) => getComputedStyle(frame).colorScheme)).toBe(
      'light',
    );
    await shopper.pay();
    await expect(page.getByText('Check your entries and try again.')).toBeVisible();
    expect(await axeViolations(page, 'dark checkout with errors')).toEqual([]);

    // Choosing light: the checkout takes the light colours (theme-change.spec.ts: its frames too, the card kept), and the
    // choice outlives a reload.
    await shopper.themeToggle().click();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(page.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
    expect(await checkoutColours()).toEqual({ text: 'rgb(31, 35, 40)', field: 'rgb(255, 255, 255)' });
    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
    await expect(shopper.themeToggle()).toHaveAttribute('aria-pressed', 'false');
  });

  // One payment for both (a payment costs about 4 s of CPU).
  test('a dark payment goes through to a dark receipt without an accessibility violation, which names the order by its human number, not its id', async ({
    page,
  }) => {
    const shopper = new Shopper(page);
    await shopper.startCheckoutOfNewOrder();
    await shopper.payWithCard(cards.visa);
    const orderId = await shopper.seesReceipt();
    expect(await axeViolations(page, 'dark receipt')).toEqual([]);
    const number = await shopper.receiptOrderNumber();
    const { order } = await (await page.request.get(`/api/orders/${orderId}`)).json();
    expect(number).toBe(order.number);
    expect(number).toBeGreaterThanOrEqual(1001);
    await expect(page.getByRole('main')).not.toContainText(orderId);
  });
});

test("npm start's terminal: readable log lines, then the banner, which requests do not push away (their lines only at LOG_LEVEL=debug)", async ({
  request,
}) => {
  // A Kassa of its own at the default log level (the run's Kassas log at debug for the audit), started by npm start's
  // command (not the run's bundle), serving the web app the run's first Kassa built.
  const root = join(import.meta.dirname, '..', '..');
  const kassa = await startProduct({ LOG_LEVEL: 'info', WEB_DIST: webDist(root) }, root, { asNpmStart: true });
  try {
    expect((await request.get(`${kassa.shopUrl}/api/config`)).ok()).toBe(true);
    expect((await request.get(`${kassa.shopUrl}/`)).ok()).toBe(true);
  } finally {
    await kassa.stop();
  }
  const lines = kassa
    .output()
    .split('\n')
    .filter((line) => line.trim() !== '');
  const banner = lines.indexOf('Kassa is running.');
  expect(banner, kassa.output()).toBeGreaterThan(0);
  // Before the banner, the start's log lines read as time, level and message (pino-pretty), not JSON.
  for (const line of lines.slice(0, banner)) expect(line).toMatch(/^\[\d\d:\d\d:\d\d\] (INFO|WARN): \S/);
  // After it, nothing the two requests logged until the stop.
  expect(lines.slice(lines.indexOf('Press Ctrl-C to stop.') + 1)).toEqual(['Kassa stopped.']);
});

test('the cart, an empty cart, sign-in and sign-up have no accessibility violations; their text links have one style', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await page.goto('/cart');
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  expect(await axeViolations(page, 'empty cart')).toEqual([]);
  await shopper.visitShop();
  await shopper.addToCart(catalogue.everyday);
  await page.getByRole('link', { name: /^Cart/ }).click();
  await expect(page.getByRole('button', { name: 'Go to checkout' })).toBeVisible();
  expect(await axeViolations(page, 'cart')).toEqual([]);
  const links = await textLinkLooks(page, 'cart');
  await page.goto('/sign-in');
  await expect(page.getByRole('heading', { name: 'Sign in' })).toBeVisible();
  expect(await axeViolations(page, 'sign-in')).toEqual([]);
  links.push(...(await textLinkLooks(page, 'sign-in')));
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page.getByRole('heading', { name: 'Create an account' })).toBeVisible();
  expect(await axeViolations(page, 'sign-up')).toEqual([]);
  links.push(...(await textLinkLooks(page, 'sign-up')));
  // One link style: the text links of the three pages, links and link-like buttons, look the same.
  expect(new Set(links.map((link) => link.where))).toEqual(new Set(['cart', 'sign-in', 'sign-up']));
  expect(new Set(links.map((link) => link.look)).size, JSON.stringify(links)).toBe(1);
});
