import { expect, test } from '@playwright/test';
import { CheckoutSheet } from '../../support/checkout-sheet.ts';
import { clearSandboxFaults, injectSandboxFault } from '../../support/sandbox-faults.ts';
import { Shopper, uniqueEmail } from '../../support/shopper.ts';

test.afterEach(clearSandboxFaults);

test('a deletion the gateway refuses (503 on the server\'s paymentMethod.delete) shows "Unable to delete payment method, try again." over the heading, stays in edit mode and keeps the card', async ({
  page,
}) => {
  const shopper = new Shopper(page);
  const sheet = new CheckoutSheet(page);
  await shopper.signUpThroughApi('Dorothy Vaughan', uniqueEmail('dorothy'), 'fortran-langley-1961');
  await shopper.savesCardThroughApi('fake-valid-mastercard-nonce');
  await shopper.startCheckoutOfNewOrder();
  await sheet.seesView('methods');

  // The checkout deletes through Kassa's server, which deletes at the gateway with the SDK's paymentMethod.delete.
  await injectSandboxFault({
    target: 'server_api',
    method: 'DELETE',
    path: '/payment_methods/any/',
    fault: { type: 'status', status: 503 },
  });
  await sheet.root().getByRole('button', { name: 'Edit' }).click();
  await sheet
    .root()
    .getByRole('button', { name: /^Delete Mastercard ending in 4444|^Delete MasterCard ending in 4444/ })
    .click();
  await sheet.root().getByRole('dialog').getByRole('button', { name: 'Delete' }).click();

  await expect(sheet.message()).toHaveText('Unable to delete payment method, try again.');
  // Still in edit mode: the message covers the heading in the sheet's header row (c543fb8), Done stays beside it.
  await expect(sheet.root().getByRole('heading', { name: 'Edit payment methods' })).toBeHidden();
  await expect(sheet.root().getByRole('button', { name: 'Done' })).toBeVisible();
  await expect(sheet.root().getByRole('button', { name: /ending in 4444/ })).toBeVisible();
  await page.screenshot({ path: test.info().outputPath('delete-failed.png') });
});
