import { expect, test, type Page } from '@playwright/test';
import { cards, Shopper, TEST_VISA_NONCE, uniqueEmail, type AccountPage } from '../support/shopper.ts';
import { axeOn } from '../support/axe.ts';

// The account pages as a shopper clicks through them: saved cards, subscriptions, the order history. Cards a spec
// only needs to exist are saved through the server's API with the gateway's test nonces (no typing); the card a spec
// is about is typed into the checkout's card form, as a shopper does.

const TEST_MASTERCARD_NONCE = 'fake-valid-mastercard-nonce';

async function axeViolations(page: Page): Promise<string[]> {
  return (await axeOn(page).analyze()).violations.map((violation) => `${violation.id}: ${violation.help}`);
}

/** A new shopper, signed up through the API (the sign-up pages are accounts.spec's subject), on the shop's page. */
async function newShopper(page: Page, name: string): Promise<Shopper> {
  const shopper = new Shopper(page);
  await shopper.signUpThroughApi(name, uniqueEmail(name.split(' ')[0]?.toLowerCase() ?? 'shopper'), 'account-pages-2026');
  await shopper.visitShop();
  return shopper;
}

// One shopper for both (a test's own page, sign-up and account page cost about 2 s of CPU): the card saved, then typed
// again.
test("payment methods: a card typed into the checkout's card form is saved, as the default when it is the first; typed again, it is refused with the checkout's words", async ({
  page,
}) => {
  const shopper = await newShopper(page, 'Mary Jackson');
  await shopper.openAccount('Payment methods');
  await expect(page.getByText('No saved cards yet.')).toBeVisible();

  await shopper.addsCardOnAccountPage(cards.visa);
  await expect(shopper.accountStatus()).toHaveText('Visa ending in 1111 saved.');
  await expect(shopper.accountRow(/^Visa ending in 1111/)).toContainText('Default');
  await expect(shopper.accountRow(/^Visa ending in 1111/)).toContainText(
    `Expires ${cards.visa.expiry.slice(0, 2)}/20${cards.visa.expiry.slice(3)}`,
  );
  await expect(page.getByRole('region', { name: 'Add a card' })).toHaveCount(0);
  await page.screenshot({ path: test.info().outputPath('payment-methods.png'), fullPage: true });

  await shopper.addsCardOnAccountPage(cards.visa);
  const addCard = page.getByRole('region', { name: 'Add a card' });
  await expect(addCard.locator('.form-error')).toHaveText('This credit card already exists as a saved payment method.');
  // No axe run here: over the card form's five frames it costs 10-15 s on a loaded machine, and the checkout's own
  // specs check those frames; the rest of this page is checked in the specs around.
  await page.screenshot({ path: test.info().outputPath('add-card-duplicate.png'), fullPage: true });
  await addCard.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.locator('.account-list > li')).toHaveCount(1);
});

test('payment methods: another card made the default goes first; deleting asks first (Cancel focused, Escape keeps it), then removes it', async ({
  page,
}) => {
  const shopper = await newShopper(page, 'Mary Winston');
  await shopper.savesCardThroughApi(TEST_VISA_NONCE);
  await shopper.savesCardThroughApi(TEST_MASTERCARD_NONCE);
  await shopper.openAccount('Payment methods');
  await expect(page.locator('.account-list .account-row-title').first()).toHaveText(/^Visa ending in 1881\s*Default$/);

  await page.getByRole('button', { name: 'Make default: Mastercard ending in 4444' }).click();
  await expect(shopper.accountStatus()).toHaveText('Mastercard ending in 4444 is now your default card.');
  // The default first, as at checkout.
  await expect(page.locator('.account-list .account-row-title').first()).toHaveText(/^Mastercard ending in 4444\s*Default$/);
  await expect(shopper.accountRow(/^Visa ending in 1881/)).not.toContainText('Default');

  const deleteVisa = page.getByRole('button', { name: 'Delete Visa ending in 1881' });
  await deleteVisa.click();
  const dialog = page.getByRole('dialog', { name: 'Delete Visa ending in 1881?' });
  await expect(dialog.getByRole('button', { name: 'Cancel' })).toBeFocused();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('delete-card-dialog.png') });
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(deleteVisa).toBeFocused();

  await deleteVisa.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(shopper.accountStatus()).toHaveText('Visa ending in 1881 deleted.');
  await expect(shopper.accountRow(/^Visa ending in 1881/)).toHaveCount(0);
  await expect(shopper.accountRow(/^Mastercard ending in 4444/)).toBeVisible();
  // The checkout of the next order offers what is left.
  await shopper.startCheckoutOfNewOrder();
  await expect(shopper.savedCard('Mastercard ending in 4444')).toBeChecked();
  await expect(shopper.savedCard('Visa ending in 1881')).toHaveCount(0);
});

test('subscriptions: subscribe with a saved card, which is locked while it pays; cancel after the question, and the card can go', async ({
  page,
}) => {
  const shopper = await newShopper(page, 'Christine Darden');
  await shopper.savesCardThroughApi(TEST_VISA_NONCE);
  await shopper.openAccount('Subscriptions');
  await expect(page.getByText('No subscriptions yet.')).toBeVisible();

  const plan = page
    .getByRole('region', { name: 'Subscribe and save' })
    .getByRole('listitem')
    .filter({ hasText: 'Coffee beans, 1 kg, every month' });
  await expect(plan.getByLabel('Pay with')).toHaveValue(/.+/);
  await expect(plan.getByLabel('Pay with').locator('option:checked')).toHaveText('Visa ending in 1881');
  await plan.getByRole('button', { name: 'Subscribe' }).click();
  await expect(shopper.accountStatus()).toHaveText(
    'Subscribed to Coffee beans, 1 kg, every month. The first payment went through.',
  );
  const subscription = page.locator('.account-list').getByRole('listitem').filter({ hasText: 'Coffee beans, 1 kg, every month' });
  await expect(subscription).toContainText('Active');
  // A plan the shopper receives is not offered again.
  await expect(plan).toHaveCount(0);
  await expect(subscription).toContainText('€24.50 / month');
  await expect(subscription).toContainText(/Next payment on [A-Z][a-z]+ \d{1,2}, \d{4}/);
  await expect(subscription).toContainText('Paid with Visa ending in 1881');
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('subscriptions.png'), fullPage: true });

  await shopper.openAccount('Payment methods');
  const deleteCard = page.getByRole('button', { name: 'Delete Visa ending in 1881' });
  await expect(deleteCard).toBeDisabled();
  await expect(deleteCard).toHaveAccessibleDescription('Pays for a subscription. Cancel the subscription to delete this card.');

  await shopper.openAccount('Subscriptions');
  await page.getByRole('button', { name: 'Cancel subscription: Coffee beans, 1 kg, every month' }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel Coffee beans, 1 kg, every month?' });
  await expect(dialog.getByRole('button', { name: 'Keep subscription' })).toBeFocused();
  await dialog.getByRole('button', { name: 'Cancel subscription' }).click();
  await expect(shopper.accountStatus()).toHaveText('Coffee beans, 1 kg, every month canceled.');
  await expect(subscription).toContainText('Canceled');
  await expect(subscription).not.toContainText('Next payment');
  await expect(page.getByRole('button', { name: /^Cancel subscription: / })).toHaveCount(0);
  await expect(plan.getByRole('button', { name: 'Subscribe' })).toBeVisible();

  await shopper.openAccount('Payment methods');
  await expect(deleteCard).toBeEnabled();
});

test('subscriptions: a shopper with no saved card subscribes with a new card, saved on the way and locked by the subscription', async ({
  page,
}) => {
  const shopper = await newShopper(page, 'Gladys West');
  await shopper.openAccount('Subscriptions');
  const offer = page.getByRole('region', { name: 'Subscribe and save' });
  await expect(offer.getByLabel('Pay with').locator('option:checked')).toHaveText('A new card');
  await expect(offer.locator('[data-kassa-checkout]')).toHaveAttribute('data-state', 'ready');
  await shopper.enterCard(cards.amex);
  await page.screenshot({ path: test.info().outputPath('subscribe-new-card.png'), fullPage: true });
  await shopper.pressBelowCard(offer.getByRole('button', { name: 'Subscribe' }));
  await expect(shopper.accountStatus()).toHaveText(
    'Subscribed to Coffee beans, 1 kg, every month. The first payment went through.',
  );
  await expect(page.locator('.account-list').getByRole('listitem')).toContainText('Paid with American Express ending in 0005');

  await shopper.openAccount('Payment methods');
  await expect(page.getByRole('button', { name: 'Delete American Express ending in 0005' })).toBeDisabled();
});

test('order history: the newest first, a paid order with its receipt, an unpaid one with Pay now', async ({ page }) => {
  const shopper = await newShopper(page, 'Annie Easley');
  // The orders are made through the API the shop's pages use: paying in the checkout is other specs' subject.
  const { number: paid } = await shopper.paysThroughApi(cards.visa);
  // A second order, left unpaid.
  await shopper.ordersThroughApi();

  await shopper.openAccount('Orders');
  const titles = page.locator('.account-list .account-row-title');
  await expect(titles).toHaveCount(2);
  // Numbers are the shop's (other shoppers order in between): the unpaid one is newer, so it comes first.
  const [unpaid, older] = (await titles.allTextContents()).map((title) => Number(/^Order (\d+)$/.exec(title)?.[1]));
  expect(older).toBe(paid);
  expect(unpaid).toBeGreaterThan(paid);
  await expect(shopper.accountRow(`Order ${paid}`)).toContainText('Paid');
  await expect(shopper.accountRow(`Order ${paid}`)).toContainText('Kassa mug × 1');
  await expect(shopper.accountRow(`Order ${unpaid}`)).toContainText('Awaiting payment');
  await expect(page.getByRole('link', { name: `Pay now, order ${unpaid}` })).toBeVisible();
  expect(await axeViolations(page)).toEqual([]);
  await page.screenshot({ path: test.info().outputPath('orders.png'), fullPage: true });

  await page.getByRole('link', { name: `Receipt for order ${paid}` }).click();
  await shopper.seesReceipt();
  expect(await shopper.receiptOrderNumber()).toBe(paid);
});

// One sign-in on the page for the three (a test's own page and sign-in cost about 2 s of CPU): the visitor's, which is
// the demo shopper's.
test("a visitor who is not signed in is asked to sign in, and comes back to the account page; the demo shopper's account pages fit a 390 x 844 phone (the locked card, the active coffee subscription, the orders) and follow the dark theme without an accessibility violation (contrast included)", async ({
  page,
}) => {
  await page.goto('/account/subscriptions');
  await expect(page.getByText('Sign in to see your orders, saved cards and subscriptions.')).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
  await page.getByLabel('Email').fill('shopper@kassa.test');
  await page.getByLabel('Password').fill('kassa-demo-shopper');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Subscriptions' })).toBeVisible();
  await expect(page).toHaveURL(/\/account\/subscriptions$/);

  const shopper = new Shopper(page);
  await page.setViewportSize({ width: 390, height: 844 });
  for (const name of ['Payment methods', 'Subscriptions', 'Orders'] satisfies AccountPage[]) {
    await shopper.openAccount(name);
    await expect(page.getByText('Loading…')).toHaveCount(0);
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), name).toBe(true);
    await page.screenshot({
      path: test.info().outputPath(`${name.toLowerCase().replace(' ', '-')}-phone.png`),
      fullPage: true,
    });
  }
  await shopper.openAccount('Payment methods');
  await expect(page.getByRole('button', { name: 'Delete Visa ending in 1881' })).toBeDisabled();
  await shopper.openAccount('Subscriptions');
  await expect(page.locator('.account-list').getByText('Coffee beans, 1 kg, every month')).toBeVisible();

  // The theme follows the system's setting while the page is open (theme/theme.ts).
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  for (const name of ['Payment methods', 'Subscriptions'] satisfies AccountPage[]) {
    await shopper.openAccount(name);
    await expect(page.getByText('Loading…')).toHaveCount(0);
    expect(await axeViolations(page), name).toEqual([]);
    await page.screenshot({ path: test.info().outputPath(`${name.toLowerCase().replace(' ', '-')}-dark.png`), fullPage: true });
  }
});
