import { expect, test } from '@playwright/test';
import { cards, Shopper } from '../support/shopper.ts';
import { catalogue, productIds } from '../support/catalogue.ts';

test('a guest pays with a Visa card and sees the receipt', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesReceipt();
  await expect(page.getByText('Paid with Visa ending in 1111')).toBeVisible();
});

test('Enter in a card field pays, as Enter submits a form', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.field('postalCode').press('Enter');
  await shopper.seesReceipt();
});

test('a declined payment says why, the message takes focus, and the shopper can try again with another card', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const idempotencyKeys = shopper.recordPaymentRequests();
  await shopper.startCheckoutOfNewOrder(productIds.declinedByAmount);
  await expect(shopper.payButton()).toHaveText('Pay €2,000.00');
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  const declined = 'Your card was declined (Do Not Honor). Please try another card.';
  await shopper.seesPaymentError(declined);
  await expect(page.locator('.payment-feedback')).toBeFocused();
  await expect(shopper.payButton()).toBeEnabled();

  // The sandbox declines this amount whatever the card: the second attempt reaches the gateway as a new payment.
  await shopper.enterCard(cards.mastercard);
  await shopper.pay();
  await expect.poll(() => idempotencyKeys.length).toBe(2);
  expect(new Set(idempotencyKeys).size).toBe(2);
  await shopper.seesPaymentError(declined);
  const orderId = /\/checkout\/([^/]+)/.exec(page.url())?.[1];
  const { order } = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order.status).toBe('pending');
  expect(order.payments.map((payment: { status: string }) => payment.status)).toEqual(['declined', 'declined']);
});

test('a double click on Pay charges once', async ({ page }) => {
  const shopper = new Shopper(page);
  const paymentRequests = shopper.recordPaymentRequests();
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.mastercard);
  await shopper.pressBelowCard(shopper.payButton(), 'dblclick');
  const orderId = await shopper.seesReceipt();
  expect(paymentRequests).toHaveLength(1);

  // The server's record of the order: exactly one successful payment.
  const { order } = await (await page.request.get(`/api/orders/${orderId}`)).json();
  expect(order.status).toBe('paid');
  expect(order.payments.filter((payment: { status: string }) => payment.status === 'succeeded')).toHaveLength(1);
});
