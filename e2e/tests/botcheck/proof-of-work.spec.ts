import { expect, test } from '@playwright/test';
import { catalogue } from '../../support/catalogue.ts';
import { cards, Shopper } from '../../support/shopper.ts';

// The default bot-check (ALTCHA's proof of work) is solved off the main thread: in Web Workers loaded from the shop's
// own origin, which the strict CSP allows (worker-src 'self', no blob:).
test("Pay solves the proof of work in Web Workers from the shop's origin, under the CSP, and pays", async ({ page, baseURL }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  expect(workers).toEqual([]);
  await shopper.payWithCard(cards.visa);
  await shopper.seesReceipt();
  expect(workers.length).toBeGreaterThan(0);
  for (const url of workers) expect(url).toMatch(new RegExp(`^${baseURL}/assets/altcha\\.worker-[\\w-]+\\.js$`));
  expect(violations).toEqual([]);
});
