// The shop's theme changed in the middle of a checkout (the system's setting, then the header's button: theme/theme.ts):
// the card frames take the new colours where they are (the checkout's restyle()), so the card typed and the view
// chosen stay. Before, the checkout was mounted again for them: back to the saved methods' list, the card emptied.
import { expect, test } from '@playwright/test';
import { cards, Shopper, TEST_VISA_NONCE, uniqueEmail } from '../support/shopper.ts';

/** The text colours of the shop's themes (styles/app.css), as the checkout's sheet and its frames' inputs take them. */
const LIGHT_TEXT = 'rgb(31, 35, 40)';
const DARK_TEXT = 'rgb(236, 238, 241)';

test("a card typed on the card view chosen under the saved cards stays through a change of theme, the system's then the shopper's, in the new theme's colours inside its frames, and pays", async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await shopper.signUpThroughApi('Mary Jackson', uniqueEmail('mary'), 'wind-tunnel-1958');
  await shopper.savesCardThroughApi(TEST_VISA_NONCE);
  await shopper.startCheckoutOfNewOrder();
  const sheet = page.locator('[data-kassa-checkout]');
  await expect(sheet).toHaveAttribute('data-view', 'methods');
  await sheet.getByRole('button', { name: 'Card', exact: true }).click();
  await expect(sheet).toHaveAttribute('data-view', 'card');
  await shopper.enterCard(cards.visa);
  const number = shopper.field('number');
  const typed = await number.inputValue();
  expect(typed.replace(/\D/g, '')).toBe(cards.visa.number);
  const colours = () =>
    Promise.all(
      (['number', 'cvv'] as const).map((field) => shopper.field(field).evaluate((input) => getComputedStyle(input).color)),
    );
  expect(await colours()).toEqual([LIGHT_TEXT, LIGHT_TEXT]);
  // The same frame element afterwards, not one made again.
  await page.locator('iframe[name="kassa-field-number"]').evaluate((frame) => frame.setAttribute('data-test-kept', ''));
  const stillTyped = async () => {
    await expect(sheet).toHaveAttribute('data-view', 'card');
    await expect(page.locator('iframe[name="kassa-field-number"][data-test-kept]')).toHaveCount(1);
    await expect(number).toHaveValue(typed);
    await expect(shopper.field('expirationDate')).not.toHaveValue('');
    await expect(shopper.field('cvv')).toHaveValue(cards.visa.cvv);
    await expect(shopper.field('postalCode')).toHaveValue(cards.visa.postalCode);
  };

  // The system's setting first (nothing on the page is pressed, so no field's blur restyles them by the way), then the
  // shopper's button.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expect.poll(colours).toEqual([DARK_TEXT, DARK_TEXT]);
  await stillTyped();
  await shopper.themeToggle().click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
  await expect.poll(colours).toEqual([LIGHT_TEXT, LIGHT_TEXT]);
  await stillTyped();

  await shopper.pay();
  await shopper.seesReceipt();
});
