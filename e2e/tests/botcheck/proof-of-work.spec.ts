import { expect, test } from '@playwright/test';
import { cards, Shopper } from '../../support/shopper.ts';

// The default bot-check (ALTCHA's proof of work) is solved off the main thread: in Web Workers loaded from the shop's
// own origin, which the strict CSP allows (worker-src 'self', no blob:). It is solved while the shopper types the card
// (issue 10), and Pay spends that solution: one challenge for one payment.
test("the proof of work is solved in Web Workers from the shop's origin, under the CSP, from the first character the shopper types in a card field, and Pay spends it", async ({
  page,
  baseURL,
}) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const workers: string[] = [];
  page.on('worker', (worker) => workers.push(worker.url()));
  const challenges: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).pathname === '/api/botcheck/challenge') challenges.push(request.url());
  });
  const shopper = new Shopper(page);
  await shopper.startCheckoutOfNewOrder();
  // Entering a field is not typing: the card view focuses its first field as it opens, and nothing is solved for it.
  await shopper.field('number').click();
  await page.waitForTimeout(300);
  expect(workers).toEqual([]);
  expect(challenges).toEqual([]);
  await shopper.typeCard(cards.visa);
  // Being solved before Pay is pressed.
  await expect.poll(() => workers.length).toBeGreaterThan(0);
  expect(challenges).toHaveLength(1);
  await shopper.pay();
  await shopper.seesReceipt();
  expect(challenges).toHaveLength(1);
  for (const url of workers) expect(url).toMatch(new RegExp(`^${baseURL}/assets/altcha\\.worker-[\\w-]+\\.js$`));
  expect(violations).toEqual([]);
});
