import { performance } from 'node:perf_hooks';
import { chromium, errors } from 'playwright-core';
import type { Browser, BrowserContext, Page, Request } from 'playwright-core';
import { chromiumArgs, chromiumExecutable } from '../../e2e/support/chromium.ts';
import { startProduct } from '../../e2e/support/product.ts';
import { percentile } from './load.ts';
import { setTimeout as sleep } from 'node:timers/promises';

/** The checkout as a shopper meets it in Chromium, timed over `runs` payments (after one unmeasured). */
export interface CheckoutTiming extends CheckoutFigures {
  runs: number;
  /** With `--before`: the other checkout's figures, its runs taken in turn with these (the same moments' load). */
  before?: CheckoutFigures;
  /** The runs whose card number never took typing, each with the page as it was then (not in the figures). */
  stuck: StuckRun[];
}

/** A run stuck before a typeable card number: which checkout (this one, or `--before`'s), which way, which run (0: the warm-up). */
export interface StuckRun extends StuckCheckout {
  kassa: 'this' | 'before';
  way: 'address' | 'cart';
  run: number;
}

/**
 * What a checkout page whose card number never took typing showed at the time limit, to tell a checkout that failed
 * (which frame, which request) from a page that never drew it or a frame Playwright lost (bench/FINDINGS.md, stuck1).
 */
export interface StuckCheckout {
  waitedMs: number;
  url: string;
  /** Why the look at the page's document failed (no answer within 5 s, an error), then the fields from it are empty; null: it answered. */
  lookFailed: string | null;
  /** The drop-in's `data-state` (`loading`, `ready`, `error`, ...); null: no checkout in the page. */
  checkoutState: string | null;
  /** The text of each visible alert and status: the checkout's sheet message, the page's. */
  messages: string[];
  /** The start of the visible text of the page's main content ("Loading…", the order, the form's labels). */
  text: string;
  /** The page's frames as Playwright has them: name, URL, and whether it reported `ready` to the page (a card field's). */
  frames: Array<{ name: string; url: string; ready: boolean }>;
  /** The frames the page's document holds (name, or address): one missing from `frames` is one Playwright lost. */
  framesInDocument: string[];
  /** Requests of the page and its frames not finished, with how long they had been waiting. */
  pendingRequests: Array<{ method: string; url: string; forMs: number }>;
  /** Console errors and uncaught exceptions of the page and its frames. */
  consoleErrors: string[];
}

/** A stuck checkout, thrown by `untilTypeable` with its record. */
export class CheckoutStuckError extends Error {
  constructor(readonly stuck: StuckCheckout) {
    super(`no typeable card number within ${Math.round(stuck.waitedMs)} ms (checkout ${stuck.checkoutState ?? 'absent'})`);
    this.name = 'CheckoutStuckError';
  }
}

export interface CheckoutFigures {
  /** From the checkout page's navigation to a card number field that takes typing (in the gateway's frame). */
  typeableMs: Summary;
  /**
   * The same moment by the page's own clock: the card number field shown and usable (its frame ready, neither the form
   * nor the field inert; before the number field was usable on its own, every frame ready). Without Playwright's round
   * trips into the frame, which on a busy machine take a large part of typeableMs.
   */
  numberUsableMs: Summary;
  /** By the page's clock: the whole card form usable (every frame ready, no field inert). */
  formUsableMs: Summary;
  /** From pressing Pay (bot-check solved in the browser, payment, answer) to the receipt on screen. */
  payToReceiptMs: Summary;
  /**
   * The same by the page's clock: from the Pay click's event to the receipt's heading in the page. Without Playwright's
   * click (51-67 ms before it returns, issue 10's payslow pass) and its wait's checks (at 0, 20, 70, 170 ms ...), which
   * made most of payToReceiptMs.
   */
  payToReceiptByPageMs: Summary;
  /**
   * A shopper's way there: the shop, a mug added to the cart, the cart (a second on it, reading it), then "Go to
   * checkout", which makes the order and shows the checkout by the app's own navigation (no page load). From that click
   * to a card number field that takes typing (Playwright's check, as typeableMs), and by the page's clock from the click
   * to the number field usable and to the whole form usable.
   */
  fromCart: { typeableMs: Summary; numberUsableMs: Summary; formUsableMs: Summary };
}

interface Summary {
  p50: number;
  max: number;
}

const NEXT_YEAR = (new Date().getFullYear() + 3) % 100;
const CARD = { number: '4111111111111111', expirationDate: `12/${NEXT_YEAR}`, cvv: '123', postalCode: '12345' };

/** A card field's input, inside the frame the gateway's origin serves (e2e/support/shopper.ts names them the same). */
const field = (page: Page, name: keyof typeof CARD) => page.frameLocator(`iframe[name="kassa-field-${name}"]`).locator('input');

interface Samples {
  typeable: number[];
  numberUsable: number[];
  formUsable: number[];
  payToReceipt: number[];
  payToReceiptByPage: number[];
  cartTypeable: number[];
  cartNumberUsable: number[];
  cartFormUsable: number[];
}

/**
 * Kassa as `npm start` runs it (the web app built, the sandbox beside it, a fresh SQLite database, logs at `info`), and
 * a headless Chromium: each run a new browser context (no cache, no cookies: a shopper's first visit) makes an order
 * through the shop's API, opens its checkout page, waits for a typeable card field, types a test card, presses Pay and
 * waits for the receipt. Playwright's own round trips (a few ms each) are inside the figures. With `beforeRoot` (another
 * checkout of the repository), its Kassa runs beside this one and each run is made on both, in turn (which one goes
 * first alternates), so the machine's moving load weighs on both alike.
 */
export async function checkoutTiming(runs: number, beforeRoot?: string): Promise<CheckoutTiming> {
  const products: Array<{ kassa: StuckRun['kassa']; product: Awaited<ReturnType<typeof startProduct>>; samples: Samples }> = [
    { kassa: 'this', product: await startProduct({ LOG_LEVEL: 'info' }), samples: emptySamples() },
  ];
  if (beforeRoot !== undefined)
    products.push({
      kassa: 'before',
      product: await startProduct({ LOG_LEVEL: 'info' }, beforeRoot),
      samples: emptySamples(),
    });
  const browser = await chromium.launch({ executablePath: await chromiumExecutable(), args: chromiumArgs });
  const stuck: StuckRun[] = [];
  const ways = [
    ['address', timeOneRun],
    ['cart', timeFromCart],
  ] as const;
  try {
    for (let run = 0; run <= runs; run += 1) {
      const turn = run % 2 === 0 ? products : [...products].reverse();
      // The first run warms each server and the browser up (the JIT, the database's cache): not measured.
      for (const { kassa, product, samples } of turn) {
        for (const [way, time] of ways) {
          try {
            await time(browser, product.shopUrl, run === 0 ? undefined : samples);
          } catch (error) {
            // Recorded with the page as it was, and the runs go on: one stuck checkout or many tells which it is.
            if (!(error instanceof CheckoutStuckError)) throw error;
            stuck.push({ kassa, way, run, ...error.stuck });
          }
        }
      }
    }
  } finally {
    await browser.close();
    await Promise.all(products.map(({ product }) => product.stop()));
  }
  const [after, before] = products;
  return {
    runs,
    ...figures(after?.samples ?? emptySamples()),
    ...(before ? { before: figures(before.samples) } : {}),
    stuck,
  };
}

const emptySamples = (): Samples => ({
  typeable: [],
  numberUsable: [],
  formUsable: [],
  payToReceipt: [],
  payToReceiptByPage: [],
  cartTypeable: [],
  cartNumberUsable: [],
  cartFormUsable: [],
});

function figures(samples: Samples): CheckoutFigures {
  const summary = (values: number[]): Summary => {
    const sorted = [...values].sort((a, b) => a - b);
    return { p50: percentile(sorted, 0.5), max: sorted.at(-1) ?? 0 };
  };
  return {
    typeableMs: summary(samples.typeable),
    numberUsableMs: summary(samples.numberUsable),
    formUsableMs: summary(samples.formUsable),
    payToReceiptMs: summary(samples.payToReceipt),
    payToReceiptByPageMs: summary(samples.payToReceiptByPage),
    fromCart: {
      typeableMs: summary(samples.cartTypeable),
      numberUsableMs: summary(samples.cartNumberUsable),
      formUsableMs: summary(samples.cartFormUsable),
    },
  };
}

/**
 * A new browser context whose pages note, by their own clock (from their navigation), the last click (`kassaClicked`),
 * when the card number field becomes usable (neither it nor the card view inert), when the whole form does (no
 * field inert either) and when the receipt's heading is in the page (`kassaReceipt`; the app shows it without a load);
 * and which card frames reported `ready`, for a stuck checkout's record (`kassaFramesReady`).
 */
export async function timedContext(browser: Browser, shopUrl: string): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL: shopUrl });
  await context.addInitScript(() => {
    if (window.top !== window) return;
    const clock = window as PageClock;
    // Which frames of this page reported `ready` (docs/contracts.md, the card fields' protocol), by the iframe's name:
    // a stuck checkout's record says which did not. Listening before the page's own scripts run.
    window.addEventListener('message', (event) => {
      const data: unknown = event.data;
      if (typeof data !== 'object' || data === null) return;
      const { source, type } = data as { source?: unknown; type?: unknown };
      if (source !== 'kassa-hosted-fields' || type !== 'ready') return;
      const frame = [...document.querySelectorAll('iframe')].find((iframe) => iframe.contentWindow === event.source);
      (clock.kassaFramesReady ??= []).push(frame?.name ?? '(a frame no longer in the page)');
    });
    document.addEventListener(
      'click',
      () => {
        clock.kassaClicked = performance.now();
      },
      true,
    );
    const observer = new MutationObserver(() => {
      if (document.querySelector(".kassa-card:not([inert]):not([hidden]) [data-field='number']:not([inert])") === null) return;
      clock.kassaNumberUsable ??= performance.now();
      if (document.querySelector('.kassa-card .kassa-field[inert]') !== null) return;
      clock.kassaFormUsable = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, attributes: true, attributeFilter: ['inert', 'hidden'] });
    const receipt = new MutationObserver(() => {
      if (document.getElementById('receipt-title') === null) return;
      clock.kassaReceipt = performance.now();
      receipt.disconnect();
    });
    receipt.observe(document, { childList: true, subtree: true });
  });
  return context;
}

interface PageClock {
  kassaFramesReady?: string[];
  kassaClicked?: number;
  kassaNumberUsable?: number;
  kassaFormUsable?: number;
  kassaReceipt?: number;
}

/** What the page's clock noted (NaN for what it did not see). */
function pageClock(page: Page): Promise<{ clicked: number; number: number; form: number; receipt: number }> {
  return page.evaluate(() => {
    const {
      kassaClicked = Number.NaN,
      kassaNumberUsable = Number.NaN,
      kassaFormUsable = Number.NaN,
      kassaReceipt = Number.NaN,
    } = window as PageClock;
    return { clicked: kassaClicked, number: kassaNumberUsable, form: kassaFormUsable, receipt: kassaReceipt };
  });
}

/** How long a checkout has to show a card number that takes typing (Playwright's own default time-out). */
export const TYPEABLE_LIMIT_MS = 30_000;

/**
 * Polls the card number field (in the gateway's frame) until it takes typing; past `limitMs`, throws a
 * CheckoutStuckError with the page as it is then (`watch`, set on the page before its navigation).
 */
export async function untilTypeable(page: Page, watch: PageWatch, limitMs = TYPEABLE_LIMIT_MS): Promise<void> {
  const started = performance.now();
  // Never 0: Playwright takes a time-out of 0 as none.
  const left = (): number => Math.max(1, started + limitMs - performance.now());
  const number = field(page, 'number');
  try {
    await number.waitFor({ state: 'visible', timeout: left() });
    for (;;) {
      if (await number.isEditable({ timeout: left() })) return;
      if (left() === 1) break;
      await page.waitForTimeout(5);
    }
  } catch (error) {
    if (!(error instanceof errors.TimeoutError)) throw error;
  }
  throw new CheckoutStuckError(await watch.record(performance.now() - started));
}

/** A page's requests and console errors as they happen, and the page's record when its checkout is stuck. */
export interface PageWatch {
  record(waitedMs: number): Promise<StuckCheckout>;
}

/** Watches `page` (before it navigates: its first requests count) for a stuck checkout's record. */
export function watchPage(page: Page): PageWatch {
  const pending = new Map<Request, number>();
  const consoleErrors: string[] = [];
  page.on('request', (request) => pending.set(request, performance.now()));
  const finished = (request: Request): void => {
    pending.delete(request);
  };
  page.on('requestfinished', finished);
  page.on('requestfailed', finished);
  page.on('console', (message) => {
    if (message.type() === 'error') consoleErrors.push(`${message.text()} (${message.location().url})`);
  });
  page.on('pageerror', (error) => consoleErrors.push(`uncaught: ${error.message}`));
  return {
    async record(waitedMs) {
      const now = performance.now();
      const pendingRequests = [...pending].map(([request, since]) => ({
        method: request.method(),
        url: request.url(),
        forMs: Math.round(now - since),
      }));
      const look = await Promise.race([lookAt(page), sleep(5_000).then(() => 'no answer within 5 s')]).catch((error: unknown) =>
        String(error),
      );
      const seen = typeof look === 'string' ? null : look;
      const ready = new Set(seen?.framesReady ?? []);
      return {
        waitedMs: Math.round(waitedMs),
        url: page.url(),
        lookFailed: typeof look === 'string' ? look : null,
        checkoutState: seen?.checkoutState ?? null,
        messages: seen?.messages ?? [],
        text: seen?.text ?? '',
        frames: page
          .frames()
          .filter((frame) => frame !== page.mainFrame())
          .map((frame) => ({ name: frame.name(), url: frame.url(), ready: ready.has(frame.name()) })),
        framesInDocument: seen?.framesInDocument ?? [],
        pendingRequests,
        consoleErrors: [...consoleErrors],
      };
    },
  };
}

/** The page's document as the shopper sees it: the checkout's state, visible messages and text, its frames. */
function lookAt(page: Page) {
  // No named function inside: tsx (the bench runs under it) would wrap it in a `__name` helper the page does not have.
  return page.evaluate(() => {
    const checkout = document.querySelector('[data-kassa-checkout]');
    return {
      checkoutState: checkout === null ? null : checkout.getAttribute('data-state'),
      messages: [...document.querySelectorAll('[role="alert"], [role="status"]')]
        .filter((element) => element.checkVisibility())
        .map((element) => (element.textContent ?? '').trim())
        .filter((text) => text !== ''),
      text: (document.querySelector('main') ?? document.body).innerText.slice(0, 500),
      framesInDocument: [...document.querySelectorAll('iframe')].map((iframe) => iframe.name || iframe.src),
      framesReady: (window as PageClock).kassaFramesReady ?? [],
    };
  });
}

/** One shopper's checkout, from the order to the receipt; its figures go to `samples` (none: a warm-up). */
async function timeOneRun(browser: Browser, shopUrl: string, samples: Samples | undefined): Promise<void> {
  const context = await timedContext(browser, shopUrl);
  try {
    const page = await context.newPage();
    const watch = watchPage(page);
    const created = await page.request.post('/api/orders', { data: { items: [{ productId: 'prd_mug', quantity: 1 }] } });
    if (created.status() !== 201) throw new Error(`order refused: ${created.status()} ${await created.text()}`);
    const { order } = (await created.json()) as { order: { id: string } };
    const navigated = performance.now();
    await page.goto(`/checkout/${order.id}`, { waitUntil: 'commit' });
    await untilTypeable(page, watch);
    const ready = performance.now();
    await field(page, 'number').fill(CARD.number);
    // The other fields take typing once their frames are ready, the whole form with them.
    await page.locator("[data-kassa-checkout][data-state='ready']").waitFor();
    const usable = await pageClock(page);
    for (const name of ['expirationDate', 'cvv', 'postalCode'] as const) await field(page, name).fill(CARD[name]);
    const pressed = performance.now();
    await page.getByRole('button', { name: /^Pay (?!with )/ }).click();
    await page.getByRole('heading', { name: 'Thank you, your payment went through' }).waitFor({ timeout: 30_000 });
    const receipt = performance.now();
    const paid = await pageClock(page);
    samples?.typeable.push(ready - navigated);
    samples?.numberUsable.push(usable.number);
    samples?.formUsable.push(usable.form);
    samples?.payToReceipt.push(receipt - pressed);
    samples?.payToReceiptByPage.push(paid.receipt - paid.clicked);
  } finally {
    await context.close();
  }
}

/**
 * A shopper's way to the checkout (`CheckoutFigures.fromCart`): the shop, a mug into the cart, the cart, a second on
 * it, then "Go to checkout", timed to a typeable card number field; not paid. Its figures go to `samples` (none: a
 * warm-up).
 */
async function timeFromCart(browser: Browser, shopUrl: string, samples: Samples | undefined): Promise<void> {
  const context = await timedContext(browser, shopUrl);
  try {
    const page = await context.newPage();
    const watch = watchPage(page);
    await page.goto('/');
    await page.getByRole('button', { name: /^Add to cart: .*mug/i }).click();
    await page.getByRole('link', { name: /^Cart/ }).click();
    const goToCheckout = page.getByRole('button', { name: 'Go to checkout' });
    await goToCheckout.waitFor();
    await page.waitForTimeout(1_000);
    const clicked = performance.now();
    await goToCheckout.click();
    await untilTypeable(page, watch);
    const ready = performance.now();
    await page.locator("[data-kassa-checkout][data-state='ready']").waitFor();
    const usable = await pageClock(page);
    samples?.cartTypeable.push(ready - clicked);
    samples?.cartNumberUsable.push(usable.number - usable.clicked);
    samples?.cartFormUsable.push(usable.form - usable.clicked);
  } finally {
    await context.close();
  }
}
