import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromiumArgs, chromiumExecutable } from '../../e2e/support/chromium.ts';
import { CheckoutStuckError, timedContext, untilTypeable, watchPage } from './checkout.ts';

// A checkout page made to never get ready, on a shop origin, with card field frames on a gateway origin of their own:
// the number's frame shows a field that never takes typing and waits for a script that never comes; the CVV's
// frame reports `ready` as the card fields' protocol says (docs/contracts.md). The page waits for a request that is
// never answered (another one failed), logs an error and throws one.
const READY = `parent.postMessage({ source: 'kassa-hosted-fields', channel: 'c1', type: 'ready', field: 'cvv' }, '*');`;
let gatewayOrigin = '';
const shop: Record<string, (response: ServerResponse) => void> = {
  '/checkout': (response) =>
    html(
      response,
      `<main><h1>Checkout</h1><div data-kassa-checkout data-state="loading"><div class="kassa-checkout__header">
       <p role="alert"></p><p role="status">Loading the payment form…</p></div>
       <iframe name="kassa-field-number" src="${gatewayOrigin}/frame.html?field=number"></iframe>
       <iframe name="kassa-field-cvv" src="${gatewayOrigin}/frame.html?field=cvv"></iframe></div></main>
       <script>fetch('/api/held'); console.error('the configuration did not load');
       fetch('/api/refused').catch(() => {}); setTimeout(() => { throw new Error('the sheet could not draw') });</script>`,
    ),
  '/typeable': (response) =>
    html(response, `<iframe name="kassa-field-number" src="${gatewayOrigin}/frame.html?field=late"></iframe>`),
  '/api/held': () => {},
  // Failed, not waiting: its connection cut before an answer.
  '/api/refused': (response) => response.destroy(),
};
const gateway: Record<string, (response: ServerResponse) => void> = {
  '/frame.html?field=number': (response) => html(response, '<input disabled><script src="/frame.js"></script>'),
  '/frame.html?field=cvv': (response) => html(response, `<input><script>${READY}</script>`),
  // Takes typing 300 ms after it loads.
  '/frame.html?field=late': (response) =>
    html(
      response,
      `<input disabled><script>setTimeout(() => { document.querySelector('input').disabled = false; }, 300);</script>`,
    ),
  '/frame.js': () => {},
};

function html(response: ServerResponse, body: string): void {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html>${body}`);
}

async function serve(routes: Record<string, (response: ServerResponse) => void>): Promise<{ server: Server; origin: string }> {
  const server = createServer((request: IncomingMessage, response) => {
    const route = routes[request.url ?? ''];
    if (route) route(response);
    else response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

let servers: Server[] = [];
let shopOrigin = '';
let browser: Browser;

beforeAll(async () => {
  const shopServer = await serve(shop);
  const gatewayServer = await serve(gateway);
  servers = [shopServer.server, gatewayServer.server];
  shopOrigin = shopServer.origin;
  // Another port: another origin, as the gateway's frames are.
  gatewayOrigin = gatewayServer.origin.replace('127.0.0.1', 'localhost');
  browser = await chromium.launch({ executablePath: await chromiumExecutable(), args: chromiumArgs });
});

afterAll(async () => {
  await browser?.close();
  for (const server of servers) server.closeAllConnections();
  await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
});

describe("the bench's wait for a typeable card number", () => {
  it('records a checkout that never gets there: its state and messages, each frame and whether it reported ready, the requests still waiting, the console errors', async () => {
    const context = await timedContext(browser, shopOrigin);
    try {
      const page = await context.newPage();
      const watch = watchPage(page);
      await page.goto('/checkout', { waitUntil: 'commit' });
      const error = await untilTypeable(page, watch, 1_500).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(CheckoutStuckError);
      const stuck = (error as CheckoutStuckError).stuck;
      expect(stuck.waitedMs).toBeGreaterThanOrEqual(1_400);
      expect(stuck.url).toBe(`${shopOrigin}/checkout`);
      expect(stuck.lookFailed).toBeNull();
      expect(stuck.checkoutState).toBe('loading');
      expect(stuck.messages).toEqual(['Loading the payment form…']);
      expect(stuck.text).toMatch(/^Checkout\n/);
      expect(stuck.frames).toEqual([
        { name: 'kassa-field-number', url: `${gatewayOrigin}/frame.html?field=number`, ready: false },
        { name: 'kassa-field-cvv', url: `${gatewayOrigin}/frame.html?field=cvv`, ready: true },
      ]);
      expect(stuck.framesInDocument).toEqual(['kassa-field-number', 'kassa-field-cvv']);
      expect(stuck.pendingRequests.map(({ method, url }) => `${method} ${url}`).sort()).toEqual(
        [`GET ${gatewayOrigin}/frame.js`, `GET ${shopOrigin}/api/held`].sort(),
      );
      for (const { forMs } of stuck.pendingRequests) expect(forMs).toBeGreaterThan(1_000);
      // The failed request is no longer waiting: Chromium's console says it failed.
      expect([...stuck.consoleErrors].sort()).toEqual(
        [
          `the configuration did not load (${shopOrigin}/checkout)`,
          `Failed to load resource: net::ERR_EMPTY_RESPONSE (${shopOrigin}/api/refused)`,
          'uncaught: the sheet could not draw',
        ].sort(),
      );
    } finally {
      await context.close();
    }
  }, 15_000);

  it('returns once the card number takes typing, with nothing recorded', async () => {
    const context = await timedContext(browser, shopOrigin);
    try {
      const page = await context.newPage();
      await page.goto('/typeable');
      await untilTypeable(page, watchPage(page), 10_000);
      await expect(page.frameLocator('iframe[name="kassa-field-number"]').locator('input').isEditable()).resolves.toBe(true);
    } finally {
      await context.close();
    }
  });
});
