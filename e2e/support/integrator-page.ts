import { fileURLToPath } from 'node:url';
import { expect, type Page } from '@playwright/test';
import { pageBundle, servePageBundle, type FileFaults } from './page-bundle.ts';

// An integrator's own page around the checkout, for what the shop's pages do not show: the checkout mounted with
// options of the test's choosing (no card, a bad authorization, wallets), the events of the provider's drop-in API as
// an integrator receives them, and calls on the instance (packages/checkout/src/testing/integrator-page.tsx). The
// page's script is bundled from the checkout's source with esbuild once per worker (a fraction of a second) and served
// by Playwright at /__integrator/ on the shop's origin, like a merchant's page beside the shop's API; everything else
// (the shop's API, the gateway, its frames) is the running product.

const ENTRY = fileURLToPath(new URL('../../packages/checkout/src/testing/integrator-page.tsx', import.meta.url));
const PATH = '/__integrator/';

/** The page's script, its on-demand chunks and its CSS, by file name. */
const bundle = pageBundle({ entryPoints: { app: ENTRY }, jsx: 'automatic', outdir: '/integrator' });

export interface IntegratorSetup {
  readonly authorization: string;
  /** The checkout's options (CheckoutOptions), as JSON. */
  readonly options?: Record<string, unknown>;
}

export interface RecordedEvent {
  readonly name: string;
  readonly payload: unknown;
}

/** A new order of one mug for this browser and its checkout session (the shop's API; the cookie is the page's). */
export async function newOrderCheckout(page: Page): Promise<{ orderId: string; clientToken: string }> {
  const order = await page.request.post('/api/orders', { data: { items: [{ productId: 'prd_mug', quantity: 1 }] } });
  expect(order.status()).toBe(201);
  const { order: created } = (await order.json()) as { order: { id: string } };
  const session = await page.request.post(`/api/orders/${created.id}/checkout-session`, { data: {} });
  expect(session.ok()).toBe(true);
  return { orderId: created.id, clientToken: ((await session.json()) as { clientToken: string }).clientToken };
}

/** The client token of a new order's checkout session, for specs that do not pay it. */
export async function clientTokenForNewOrder(page: Page): Promise<string> {
  return (await newOrderCheckout(page)).clientToken;
}

/**
 * Opens the integrator's page with this setup; the checkout starts loading at once. `faults`: the page's files (by
 * name) that cannot be downloaded, as when a CDN fails (503), or whose download stalls.
 */
export async function openIntegratorPage(page: Page, setup: IntegratorSetup, faults?: FileFaults): Promise<void> {
  await servePageBundle(page, PATH, await bundle(), faults);
  // A document the shop's server answered (any will do: its public configuration), written over: the page keeps the
  // shop's origin, its strict Content-Security-Policy and its local address space (a document Playwright served itself
  // would count as public, and Chromium would refuse its requests to the gateway on this machine).
  await page.goto('/api/config');
  // `</` cannot end the script element early: JSON escapes it.
  const json = JSON.stringify(setup).replace(/</g, '\\u003c');
  await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Integrator page</title>
<link rel="stylesheet" href="${PATH}app.css"></head><body><main><h1>Integrator page</h1><div id="checkout"></div></main>
<script type="application/json" id="integrator-setup">${json}</script><script type="module" src="${PATH}app.js"></script>
</body></html>`);
}

/** Events the integrator has received so far, in order. */
export function integratorEvents(page: Page): Promise<RecordedEvent[]> {
  return page.evaluate(() => (window as unknown as { integrator: { events: RecordedEvent[] } }).integrator.events);
}

/** What the checkout's onError received so far. */
export function integratorErrors(page: Page): Promise<Array<{ code: string; message: string }>> {
  return page.evaluate(
    () => (window as unknown as { integrator: { errors: Array<{ code: string; message: string }> } }).integrator.errors,
  );
}

/**
 * Calls `instance.requestPaymentMethod()` as an integrator's Pay button does (`times` calls at once); each outcome is
 * the result (nonce, type, details, deviceData) or the CheckoutError's code and message.
 */
export async function requestPaymentMethod(
  page: Page,
  times = 1,
): Promise<Array<{ ok: true; result: Record<string, unknown> } | { ok: false; code: string; message: string }>> {
  return page.evaluate(async (count) => {
    const { instance } = (
      window as unknown as {
        integrator: { instance: { requestPaymentMethod(): Promise<Record<string, unknown>> } | null };
      }
    ).integrator;
    if (instance === null) throw new Error('the checkout is not ready: no instance yet');
    const calls = Array.from({ length: count }, () => instance.requestPaymentMethod());
    return Promise.all(
      calls.map((call) =>
        call.then(
          (result) => ({ ok: true as const, result }),
          (error: { code: string; message: string }) => ({ ok: false as const, code: error.code, message: error.message }),
        ),
      ),
    );
  }, times);
}

/** Calls one of the instance's methods that take no argument, as an integrator would, and returns its answer. */
export function instanceCall(
  page: Page,
  method: 'getAvailablePaymentOptions' | 'isPaymentMethodRequestable' | 'clearSelectedPaymentMethod' | 'teardown',
): Promise<unknown> {
  return page.evaluate(
    (name) => (window as unknown as { integrator: { instance: Record<string, () => unknown> } }).integrator.instance[name]?.(),
    method,
  );
}

/** Calls the plain-page entry's `create({ authorization, container })` on the page; its rejection's message, if any. */
export function dropinCreateRejection(page: Page, container: string): Promise<string | null> {
  return page.evaluate(
    (selector) =>
      (
        window as unknown as {
          integrator: { create(options: { authorization: string; container: string }): Promise<unknown> };
        }
      ).integrator
        .create({ authorization: 'not-a-client-token', container: selector })
        .then(
          () => null,
          (error: Error) => error.message,
        ),
    container,
  );
}
