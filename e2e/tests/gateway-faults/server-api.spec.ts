import { expect, test } from '@playwright/test';
import { clearSandboxFaults, injectSandboxFault } from '../../support/sandbox-faults.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// Through the product as `npm start` runs it: a fault injected in the sandbox reaches the shopper.
test.afterEach(clearSandboxFaults);

test('a gateway that answers the sale with 503: the shopper is told it did not answer and that the attempt is being confirmed; Pay again finishes it', async ({
  page,
}) => {
  // The gateway's 503 leaves the attempt's outcome unknown: it stays pending until a retry or the reconciler resends it.
  await injectSandboxFault({
    target: 'server_api',
    method: 'POST',
    path: '/transactions$',
    fault: { type: 'status', status: 503 },
  });
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesPaymentError('The payment service did not answer. Press Pay again: you will not be charged twice.');
  await shopper.seesAttemptStatus(
    'Your last payment attempt is being confirmed with the card network. Press Pay again, or wait: this page updates by itself within about two minutes. You will not be charged twice.',
  );
  await page.screenshot({ path: test.info().outputPath('attempt-being-confirmed.png'), fullPage: true });
  // The fault was for one request: the same request again resumes the attempt (same Idempotency-Key) and charges once.
  await shopper.pay();
  await shopper.seesReceipt();
  await expect(page.locator('.attempt-status')).toHaveCount(0);
});
