import { request, type Page } from '@playwright/test';
import { botcheckToken } from './botcheck-token.ts';
import { currentProduct } from './products.ts';

// The merchant's view of a payment (admin API), read as the demo admin in a request context of its own, so the
// shopper's session in the page is untouched.

export interface RecordedPayment {
  paymentMethodType: string | null;
  threeDSecure: { status: string; liabilityShifted: boolean; liabilityShiftPossible: boolean } | null;
  transactionId: string | null;
}

/** The payment the server recorded for an order the shopper in `page` paid (or tried to). */
export async function recordedPayment(page: Page, orderId: string): Promise<RecordedPayment> {
  const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: { payment?: { id: string } } };
  const baseURL = currentProduct().shopUrl;
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  await admin.post('/api/session', {
    data: { email: 'admin@kassa.test', password: 'kassa-demo-admin', botcheck: await botcheckToken(admin, 'sign_in') },
  });
  const detail = (await (await admin.get(`/api/admin/payments/${order.payment?.id ?? 'none'}`)).json()) as {
    payment: RecordedPayment;
  };
  await admin.dispose();
  return detail.payment;
}
