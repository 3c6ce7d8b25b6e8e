import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '@playwright/test';
import { product } from '../support/products.ts';
import { cards } from '../support/shopper.ts';

// Runs after every other test, on each product (see playwright.config.ts): card data must never reach our database or
// our logs.
for (const name of ['shop', 'faults', 'settings'] as const) {
  test(`${name}: the database, the server log and the sandbox gateway's state hold no card number`, () => {
    const { databaseFile, logFile } = product(name);
    // SQLite's WAL may still hold recent writes beside the main file; the sandbox gateway keeps its state beside them
    // (SQLite too, with its own WAL while it runs).
    const sandboxState = join(dirname(databaseFile), 'sandbox.sqlite');
    const stores = [databaseFile, `${databaseFile}-wal`, logFile, sandboxState, `${sandboxState}-wal`].flatMap((file) => {
      try {
        return [{ file, text: readFileSync(file).toString('latin1') }];
      } catch {
        return [];
      }
    });
    expect(stores.map((store) => store.file)).toEqual(expect.arrayContaining([databaseFile, sandboxState]));
    expect(readFileSync(logFile, 'utf8').length).toBeGreaterThan(0);
    for (const card of Object.values(cards)) {
      for (const store of stores) {
        expect(store.text.includes(card.number), `${card.number} found in ${store.file}`).toBe(false);
      }
    }
  });
}
