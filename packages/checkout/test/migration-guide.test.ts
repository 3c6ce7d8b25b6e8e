// The README's migration guide ("Moving from the provider's drop-in") is what an integrator of the provider's drop-in
// reads to switch: every option of the provider's create(), every event and every instance method must have its row,
// and every Kassa event its place, so that the guide cannot silently fall behind either API.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_NAMES } from '../src/testing/event-names.ts';

// The provider's drop-in API (braintree-web-drop-in 1.4x: create's options, Dropin's events and methods).
const PROVIDER_OPTIONS = [
  'authorization',
  'container',
  'selector',
  'card: false',
  'card.cardholderName',
  'card.overrides.fields',
  'card.overrides.styles',
  'card.clearFieldsAfterTokenization',
  'card.vault.vaultCard',
  'card.vault.allowVaultCardOverride',
  'vaultManager',
  'preselectVaultedPaymentMethod',
  'showDefaultPaymentMethodFirst',
  'paymentOptionPriority',
  'paypal',
  'paypalCredit',
  'venmo',
  'applePay',
  'googlePay',
  'threeDSecure',
  'dataCollector',
  'locale',
  'translations',
];
const PROVIDER_EVENTS = [
  'paymentMethodRequestable',
  'noPaymentMethodRequestable',
  'paymentOptionSelected',
  'changeActiveView',
  'card:focus',
  'card:blur',
  'card:empty',
  'card:notEmpty',
  'card:validityChange',
  'card:cardTypeChange',
  'card:binAvailable',
  'card:inputSubmitRequest',
  '3ds:customer-canceled',
  '3ds:authentication-modal-render',
  '3ds:authentication-modal-close',
];
const PROVIDER_METHODS = [
  'requestPaymentMethod',
  'clearSelectedPaymentMethod',
  'isPaymentMethodRequestable',
  'getAvailablePaymentOptions',
  'updateConfiguration',
  'teardown',
  'on',
  'off',
];

/** The guide's tables, each a list of rows of cells (the header and divider rows left out), in order. */
function guideTables(): string[][][] {
  const readme = readFileSync(join(import.meta.dirname, '..', 'README.md'), 'utf8');
  const start = readme.indexOf("## Moving from the provider's drop-in");
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const tables: string[][][] = [];
  let current: string[][] | null = null;
  for (const line of section.split('\n')) {
    if (!line.startsWith('|')) {
      current = null;
      continue;
    }
    // Cells split on the pipes that are not escaped (`\|` inside code).
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((cell) => cell.trim());
    if (current === null) {
      current = [];
      tables.push(current);
      continue; // the header row
    }
    if (!/^-+$/.test(cells[0] ?? '')) current.push(cells);
  }
  return tables;
}

/** The names written as code in a cell: `card.vault.vaultCard`, `card: false` (up to a call's or object's bracket). */
const codeIn = (cell: string): string[] => [...cell.matchAll(/`([^`(]+)/g)].map((match) => (match[1] ?? '').trim());

describe("the checkout README's migration guide", () => {
  const [options = [], events = [], methods = []] = guideTables();

  it("has a row for every option of the provider's create()", () => {
    const mapped = options.flatMap((row) => codeIn(row[0] ?? ''));
    expect(PROVIDER_OPTIONS.filter((option) => !mapped.includes(option))).toEqual([]);
  });

  it("maps every event of the provider's drop-in, and every Kassa event has its place", () => {
    expect(PROVIDER_EVENTS.filter((event) => !events.some((row) => codeIn(row[0] ?? '').includes(event)))).toEqual([]);
    expect(EVENT_NAMES.filter((event) => !events.some((row) => codeIn(row[1] ?? '').includes(event)))).toEqual([]);
  });

  it("maps every instance method of the provider's drop-in to Kassa's", () => {
    for (const method of PROVIDER_METHODS) {
      const row = methods.find((cells) => codeIn(cells[0] ?? '').includes(method));
      expect(row, method).toBeDefined();
      expect(codeIn(row?.[1] ?? ''), method).toContain(method);
    }
  });
});
