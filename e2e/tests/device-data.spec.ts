import { expect, test } from '@playwright/test';
import { transactionDeviceData } from '../support/gateway-records.ts';
import { cards, Shopper } from '../support/shopper.ts';

// Device data: the checkout collects it through the gateway's collector frame (no script of the gateway's in our
// page), the web app sends it with the payment, the server passes it to transaction.sale, and the gateway keeps it
// with the transaction (read through the sandbox's TEST-ONLY view).
test("a card payment's transaction carries the device data the checkout collected in this browser", async ({ page }) => {
  const sent: string[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && /\/api\/orders\/[^/]+\/payments$/.test(request.url())) {
      sent.push(String((request.postDataJSON() as { deviceData?: unknown }).deviceData));
    }
  });
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  await shopper.payWithCard(cards.visa);
  const orderId = await shopper.seesReceipt();

  expect(sent).toHaveLength(1);
  expect(JSON.parse(sent[0] ?? '')).toMatchObject({ device_session_id: expect.any(String), correlation_id: expect.any(String) });
  const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as {
    order: { payment: { transactionId: string } };
  };
  const { deviceData, deviceSession } = await transactionDeviceData(order.payment.transactionId);
  expect(deviceData).toBe(sent[0]);
  expect(deviceSession).not.toBeNull();
  // The collector frame went away once it answered.
  await expect(page.locator('iframe[src*="/device-data/"]')).toHaveCount(0);
});
