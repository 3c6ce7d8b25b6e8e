import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page, Request } from '@playwright/test';
import { pageBundle, servePageBundle } from './page-bundle.ts';
import { currentProduct } from './products.ts';

// The real provider's client (`@kassa/checkout/braintree`, over braintree-web as npm ships it, nothing replaced) in a
// page of the shop's origin, talking to the sandbox gateway. braintree-web takes only the provider's own https
// origins (packages/checkout README, "The real provider"), so the page's client token names
// https://api.sandbox.braintreegateway.com and Playwright carries that origin's requests to the sandbox and back
// (the URLs in the answers written back to it); the configuration is the sandbox's own, its `threeDSecure` block
// (Cardinal's JWT, which braintree-web's 3-D Secure 2 module requires, and the address of Songbird, Cardinal's script)
// included. The 3-D Secure module loads braintree-web's client script from the provider's CDN (created with an
// authorization, it finds no global client in a bundled page): the same file from the npm package is served there.
// Every other https request is refused: braintree-web's analytics, and Songbird, which cannot be reached here
// (braintree-web then runs the lookup without Cardinal's device fingerprint, as it does when that script fails to load).

const PROVIDER_ORIGIN = 'https://api.sandbox.braintreegateway.com';
const PATH = '/__braintree-web/';
const ASSETS_ORIGIN = 'https://assets.braintreegateway.com';
const CLIENT_SCRIPT = createRequire(import.meta.url).resolve('braintree-web/dist/browser/client.js');

/** The page's script: the provider client from the checkout's source and braintree-web's modules, split as imported. */
const ENTRY = `
import { createBraintreeProvider } from '@kassa/checkout/braintree';
window.verifyCard = async (authorization, nonce, bin, amount) => {
  const provider = createBraintreeProvider(authorization);
  const signal = new AbortController().signal;
  const config = await provider.getConfiguration(signal);
  const card = { nonce, type: 'CreditCard', details: { bin } };
  return provider.verifyThreeDSecure({ card, amount, config, showChallenge: () => {}, signal });
};
`;

const bundle = pageBundle({
  stdin: { contents: ENTRY, resolveDir: dirname(fileURLToPath(import.meta.url)), sourcefile: 'app.js', loader: 'js' },
  entryNames: 'app',
  outdir: '/braintree-web',
});

export interface ThreeDSecureOutcome {
  readonly kind: string;
  readonly result?: { readonly nonce: string; readonly liabilityShifted?: boolean; readonly threeDSecureInfo?: unknown };
  readonly detail?: string;
}

/**
 * Opens the page and runs the real provider's 3-D Secure 2 verification of a card nonce; answers its outcome and the
 * lookup request braintree-web sent to the gateway (its JSON body).
 */
export async function verifyWithBraintreeWeb(
  page: Page,
  clientToken: string,
  nonce: string,
  bin: string,
  amount: string,
): Promise<{ outcome: ThreeDSecureOutcome; lookups: Record<string, unknown>[] }> {
  const sandbox = currentProduct().sandboxUrl;
  const toProvider = (text: string): string => text.split(sandbox).join(PROVIDER_ORIGIN);
  const lookups: Record<string, unknown>[] = [];
  await servePageBundle(page, PATH, await bundle());
  await page.route('https://**/*', async (route) => {
    const request: Request = route.request();
    const url = new URL(request.url());
    if (url.origin === ASSETS_ORIGIN && /^\/web\/[\d.]+\/js\/client\.min\.js$/.test(url.pathname))
      return route.fulfill({ contentType: 'text/javascript', body: await readFile(CLIENT_SCRIPT) });
    if (url.origin !== PROVIDER_ORIGIN) return route.abort();
    if (url.pathname.endsWith('/three_d_secure/lookup')) lookups.push(request.postDataJSON() as Record<string, unknown>);
    const answer = await route.fetch({ url: `${sandbox}${url.pathname}${url.search}` });
    return route.fulfill({ response: answer, body: toProvider(await answer.text()) });
  });
  const token = JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as Record<string, unknown>;
  const authorization = Buffer.from(toProvider(JSON.stringify(token))).toString('base64');
  await page.goto('/api/config');
  await page.setContent(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>braintree-web</title></head>
<body><script type="module" src="${PATH}app.js"></script></body></html>`);
  await page.waitForFunction(() => 'verifyCard' in window);
  const outcome = await page.evaluate(
    ([a, n, b, m]) =>
      (
        window as unknown as {
          verifyCard: (authorization: string, nonce: string, bin: string, amount: string) => Promise<ThreeDSecureOutcome>;
        }
      ).verifyCard(a, n, b, m),
    [authorization, nonce, bin, amount] as const,
  );
  return { outcome, lookups };
}
