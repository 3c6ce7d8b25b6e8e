import { test } from '@playwright/test';
import { catalogue } from '../../support/catalogue.ts';
import { clearSandboxFaults, injectSandboxFault } from '../../support/sandbox-faults.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// Through the product as `npm start` runs it: a fault injected in the sandbox reaches the shopper.
test.afterEach(clearSandboxFaults);

test('a gateway that answers the sale with 503: the shopper is told the payment service did not answer', async ({ page }) => {
  await injectSandboxFault({
    target: 'server_api',
    method: 'POST',
    path: '/transactions$',
    fault: { type: 'status', status: 503 },
  });
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  await shopper.enterCard(cards.visa);
  await shopper.pay();
  await shopper.seesPaymentError('The payment service did not answer. Press Pay again: you will not be charged twice.');
});
