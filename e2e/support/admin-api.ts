import { request, type APIRequestContext, type Page } from '@playwright/test';
import { currentProduct } from './products.ts';
import { signInThroughApi } from './shopper.ts';

// The merchant's view of a payment (admin API), read as the demo admin in a request context of its own, so the
// shopper's session in the page is untouched.

export interface RecordedPayment {
  paymentMethodType: string | null;
  threeDSecure: { status: string; liabilityShifted: boolean; liabilityShiftPossible: boolean } | null;
  transactionId: string | null;
}

/**
 * Signs `api` (a page's request context, whose cookies are the page's, or one of its own) in as the demo admin through
 * the API the sign-in page uses.
 */
export async function signInAsAdmin(api: APIRequestContext): Promise<void> {
  await signInThroughApi(api, 'admin@kassa.test', 'kassa-demo-admin');
}

/** The payment the server recorded for an order the shopper in `page` paid (or tried to). */
export async function recordedPayment(page: Page, orderId: string): Promise<RecordedPayment> {
  const { order } = (await (await page.request.get(`/api/orders/${orderId}`)).json()) as { order: { payment?: { id: string } } };
  const baseURL = currentProduct().shopUrl;
  const admin = await request.newContext({ baseURL, extraHTTPHeaders: { Origin: new URL(baseURL).origin } });
  await signInAsAdmin(admin);
  const detail = (await (await admin.get(`/api/admin/payments/${order.payment?.id ?? 'none'}`)).json()) as {
    payment: RecordedPayment;
  };
  await admin.dispose();
  return detail.payment;
}
