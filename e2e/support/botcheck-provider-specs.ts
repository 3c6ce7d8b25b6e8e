import { expect, type Page } from '@playwright/test';
import { type ProviderShop, startProviderShop, test, WATCHDOG_MS, type WidgetProvider } from './botcheck-provider.ts';
import { cards, Shopper, uniqueEmail } from './shopper.ts';

// The specs of each third-party bot-check (tests/botcheck/<provider>.spec.ts, one file each: a provider is a
// Kassa of its own, started for its file). Each third-party bot-check through its local stand-in (the real providers cannot be reached here: see
// support/botcheck-provider.ts): the widget's script loads under the shop's strict CSP, the token it makes is verified
// by the server at the stand-in's siteverify, and both watchdogs (here 3 s) show their catalogue messages, after
// which Pay again pays. A request held with Playwright's routing stands for a provider that does not answer. The
// watchdogs' time, and a person's over a challenge, is run forward on the page's clock (Playwright's page.clock,
// installed before the page loads; it also ticks on by itself) instead of waited out: `runFor` fires every timer due
// on the way, each tick of the execute watchdog's interval included, as that time passing would.

/** Holds every request matching `url` unanswered until the returned function lets them through. */
async function hold(page: Page, url: RegExp): Promise<() => Promise<void>> {
  await page.route(url, () => undefined);
  return () => page.unroute(url);
}

function cspViolations(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * With `held` unanswered Pay shows `message` once the watchdog's time has passed (run from the held request on, when
 * the watchdog is set); once it answers, Pay again pays the same order.
 */
async function timesOutThenPays(page: Page, held: RegExp, message: string): Promise<void> {
  const release = await hold(page, held);
  await page.clock.install();
  const asked = page.waitForRequest(held);
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.visa);
  await asked;
  await page.clock.runFor(WATCHDOG_MS);
  await shopper.seesPaymentError(message);
  await release();
  await shopper.pay();
  await shopper.seesReceipt();
}

export function botcheckProviderSpecs(provider: WidgetProvider): void {
  test.describe(`bot-check: ${provider}`, () => {
    // One worker runs them all, so the provider's Kassa starts once (the shopper project runs tests side by side).
    test.describe.configure({ mode: 'default' });
    // The provider's Kassa for this describe's tests: started as the first of them asks for it, stopped after them.
    let shop: Promise<ProviderShop & { stop(): Promise<void> }> | undefined;
    test.afterAll(async () => {
      await (await shop)?.stop();
    });
    test.use({
      providerShop: [
        // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
        async ({}, use) => use(await (shop ??= startProviderShop(provider))),
        { scope: 'test', timeout: 180_000 },
      ],
    });

    test('pays through the widget under the strict CSP; the server verified its token at siteverify', async ({
      page,
      providerShop,
    }) => {
      const violations = cspViolations(page);
      const shopper = new Shopper(page);
      await shopper.startCheckoutOfNewOrder();
      const scripts = page.waitForRequest((request) => request.url().startsWith(providerShop.scriptUrl));
      await shopper.payWithCard(cards.visa);
      await shopper.seesReceipt();
      expect(new URL((await scripts).url()).searchParams.get('render')).toBe(
        provider === 'recaptcha-v3' ? 'standin-site-key' : 'explicit',
      );
      expect(violations).toEqual([]);
    });

    test("the widget not loading in time: the anchor time-out's message, then Pay again pays", async ({ page, providerShop }) => {
      await timesOutThenPays(
        page,
        new RegExp(`^${providerShop.scriptUrl.replace(/[.?]/g, '\\$&')}`),
        'The bot-check did not load in time. Please try again.',
      );
    });

    test("no token in time: the execute time-out's message, then Pay again pays", async ({ page, providerShop }) => {
      await timesOutThenPays(
        page,
        new RegExp(`^${providerShop.standinUrl}/token`),
        'The bot-check took too long. Please try again.',
      );
    });

    if (provider === 'recaptcha-v2') {
      test("sign-up shows reCAPTCHA's checkbox: the anchor time-out's message if it does not load, then ticked it goes on", async ({
        page,
        providerShop,
      }) => {
        const script = new RegExp(`^${providerShop.scriptUrl.replace(/[.?]/g, '\\$&')}`);
        const release = await hold(page, script);
        await page.clock.install();
        const asked = page.waitForRequest(script);
        await page.goto('/sign-up');
        await page.getByLabel('Name').fill('Katherine Johnson');
        await page.getByLabel('Email').fill(uniqueEmail('katherine'));
        await page.getByLabel('Password').fill('trajectory-1962');
        await page.getByRole('button', { name: 'Create an account' }).click();
        await asked;
        await page.clock.runFor(WATCHDOG_MS);
        await expect(page.getByRole('alert')).toHaveText('The bot-check did not load in time. Please try again.');
        await release();
        await page.getByRole('button', { name: 'Create an account' }).click();
        const box = page.getByRole('dialog', { name: 'Bot check' });
        const tick = box.frameLocator('iframe[title="reCAPTCHA"]').getByRole('checkbox', { name: "I'm not a robot" });
        await expect(tick).toBeVisible();
        // A person takes their time over the box: the execute watchdog does not cut it off (had it, the box would be gone).
        await page.clock.runFor(WATCHDOG_MS + 500);
        await page.screenshot({ path: test.info().outputPath('recaptcha-checkbox.png') });
        // A click, not check(): ticked, the box closes at once, and check() would read a checkbox that is gone.
        await tick.click();
        await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
        await expect(box).toHaveCount(0);
      });
    }

    if (provider !== 'recaptcha-v3') {
      // v3 never shows a challenge: it scores silently.
      test('a visible challenge a person is still solving is not cut off by the execute time-out', async ({ page, standin }) => {
        await standin.interactive(true);
        await page.clock.install();
        const shopper = new Shopper(page);
        await shopper.startCheckoutOfNewOrder();
        await shopper.payWithCard(cards.visa);
        const challenge = page.frameLocator('iframe[title="bot-check challenge"]').getByRole('button', { name: 'I am human' });
        await expect(challenge).toBeVisible();
        // The person takes longer than the watchdog allows a hidden execution (had it cut them off, their answer would
        // be dropped: no receipt).
        await page.clock.runFor(WATCHDOG_MS + 1500);
        await expect(page.locator('.payment-feedback')).toHaveText('');
        await challenge.click();
        await shopper.seesReceipt();
      });
    }
  });
}
