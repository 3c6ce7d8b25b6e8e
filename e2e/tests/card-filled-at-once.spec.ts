import { expect, test } from '@playwright/test';
import { CheckoutSheet } from '../support/checkout-sheet.ts';
import { holdFrameMessages } from '../support/held-frame-messages.ts';
import { cards, Shopper, uniqueEmail } from '../support/shopper.ts';

// A card filled at once (the browser's autofill, a paste) and submitted at once, while the frames' last reports are
// still on their way to the checkout: the page hears every message of the gateway's frames 1 s late, in order
// (support/held-frame-messages.ts). The checkout then hears of the submit before it hears that the card is complete; it
// asks the frames to answer and judges the card once their reports are in. Before it did, it judged the card
// incomplete at once, showed the errors, and the reports arriving next cleared them: nothing happened.

const HELD_MS = 1_000;

test.beforeEach(async ({ page }) => {
  await holdFrameMessages(page, HELD_MS);
});

test('Pay pressed as soon as the card is filled in pays', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesReceipt();
});

test('Save card pressed as soon as the card is filled in saves it, on the account page', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.signUpThroughApi('Katherine Johnson', uniqueEmail('katherine'), 'filled-at-once-2026');
  await page.goto('/');
  await shopper.openAccount('Payment methods');
  await shopper.addsCardOnAccountPage(cards.mastercard);
  await expect(shopper.accountStatus()).toHaveText('Mastercard ending in 4444 saved.');
});

test('a card filled in without its CVV, Pay pressed at once: "Check your entries and try again." and the CVV\'s "Enter the security code." show, and stay once every report is in; the CVV filled in, Pay pressed at once pays', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  const sheet = new CheckoutSheet(page);
  await shopper.enterCard({ ...cards.visa, cvv: '' });
  await shopper.pay();
  await expect(sheet.message()).toHaveText('Check your entries and try again.');
  await expect(shopper.fieldError('cvv')).toHaveText('Enter the security code.');
  // Once every report is in (each held 1 s), the card is still incomplete: both messages stay. Among those reports is the
  // CVV frame's when the number's brand gives it its length: the frame's doing, not the shopper's, so it is not typing
  // and does not clear the CVV's message.
  await page.waitForTimeout(HELD_MS);
  await expect(sheet.message()).toHaveText('Check your entries and try again.');
  await expect(shopper.fieldError('cvv')).toHaveText('Enter the security code.');

  await shopper.field('cvv').fill(cards.visa.cvv);
  await shopper.pay();
  await shopper.seesReceipt();
});
