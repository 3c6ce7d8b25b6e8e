import { AxeBuilder } from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { catalogue } from '../support/catalogue.ts';
import { Shopper } from '../support/shopper.ts';

test('every page is served under a strict Content-Security-Policy and the checkout runs without violations', async ({ page }) => {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) violations.push(message.text());
  });
  const response = await page.goto('/');
  const policy = response?.headers()['content-security-policy'] ?? '';
  expect(policy).toContain("script-src 'self'");
  expect(policy).not.toContain('unsafe-inline');
  expect(policy).not.toContain('unsafe-eval');

  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  await shopper.typeInto('number', '4111');
  expect(violations).toEqual([]);
});

test('the checkout page has no accessibility violations', async ({ page }) => {
  const shopper = new Shopper(page);
  await shopper.startCheckout(catalogue.everyday);
  const results = await new AxeBuilder({ page }).analyze();
  expect(results.violations.map((violation) => `${violation.id}: ${violation.help}`)).toEqual([]);
});
