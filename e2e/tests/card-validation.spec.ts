import { expect, test } from '@playwright/test';
import { cards, Shopper } from '../support/shopper.ts';

test('an American Express number asks for a 4-digit CVV', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.typeInto('number', cards.amex.number);
  await expect(page.getByText('CVV (4 digits)')).toBeVisible();
  await shopper.typeInto('cvv', '123');
  await shopper.field('postalCode').click();
  await expect(page.getByText('This security code is not valid.')).toBeVisible();
  await shopper.field('cvv').fill('');
  await shopper.typeInto('cvv', cards.amex.cvv);
  await shopper.typeInto('expirationDate', cards.amex.expiry);
  await shopper.typeInto('postalCode', cards.amex.postalCode);
  await shopper.pay();
  await shopper.seesReceipt();
  await expect(page.getByText('Paid with American Express ending in 0005')).toBeVisible();
});

test('paying with empty fields shows every field error and pays nothing', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.pay();
  await expect(page.getByText('Check your entries and try again.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Checkout', level: 1 })).toBeVisible();
});

test('an invalid card number says so when the shopper moves on, and the corrected number is accepted; a number of a brand the gateway does not take (Mir) says the card type is not supported, and Pay sends nothing', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const payments = shopper.recordPaymentRequests();
  await shopper.startCheckoutOfNewOrder();
  await shopper.typeInto('number', '4111111111111112');
  await shopper.field('expirationDate').click();
  await expect(page.getByText('This card number is not valid.')).toBeVisible();
  // Typing clears the message; the corrected number is accepted.
  await shopper.field('number').fill('');
  await shopper.typeInto('number', cards.visa.number);
  await expect(page.getByText('This card number is not valid.')).toHaveCount(0);

  // A valid Mir number (Luhn): the frame knows the brand, the gateway configuration does not list it.
  await shopper.field('number').fill('');
  await shopper.typeInto('number', '2200 0000 0000 0004');
  await shopper.field('expirationDate').click();
  const unsupported = 'This card type is not supported. Please try another card.';
  await expect(page.locator('.kassa-field[data-field="number"]').getByText(unsupported)).toBeVisible();
  await shopper.pay();
  await expect(page.locator('[data-kassa-checkout]').getByRole('alert')).toHaveText('Check your entries and try again.');
  expect(payments).toEqual([]);
});
