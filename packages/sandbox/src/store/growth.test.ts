import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { SandboxGateway } from '../core/gateway.ts';
import type { Authorization } from '../core/fingerprint.ts';
import { openFileStore } from './file-store.ts';
import type { FileStore } from './file-store.ts';

// Issue 10: the JSON state file was rewritten and fsynced whole after each burst of changes, so a tokenize plus sale
// took 8.6 ms on a fresh state and 233 ms with 15,000 tokenizations kept. With the SQLite store a burst writes only
// what changed: the same work must cost about the same at both sizes. Real files, real fsyncs.

let folder: string;
let stores: FileStore[];
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-growth-'));
  stores = [];
});
afterEach(() => {
  for (const store of stores) store.close();
  rmSync(folder, { recursive: true, force: true });
});

const KEPT = 15_000;
const ROUNDS = 40;
const browser: Authorization = { merchantId: 'm', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };

/** A gateway on a state file of its own, and its timed burst: a tokenize, a sale and the write of both. */
function sandboxState(name: string) {
  const store = openFileStore(join(folder, `${name}.sqlite`));
  stores.push(store);
  const gateway = new SandboxGateway({ merchantId: 'm', publicKey: 'p', privateKey: 'k', store });
  const tokenize = (): string => {
    const outcome = gateway.tokenizeCard(browser, { number: '4111111111111111', expirationDate: '12/2030', cvv: '123' });
    if (!outcome.ok) throw new Error(outcome.message);
    return outcome.value.nonce;
  };
  const times: number[] = [];
  return {
    store,
    tokenize,
    /** Times one burst (as the debounced write would make it). */
    timeBurst: (): void => {
      const started = performance.now();
      const sale = gateway.sale(
        { amount: '10.00', paymentMethodNonce: tokenize(), options: { submitForSettlement: true } },
        null,
      );
      store.flush();
      times.push(performance.now() - started);
      expect(sale.kind).toBe('success');
    },
    median: (): number => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)] ?? Number.NaN,
  };
}

it(`a tokenize plus sale, written to the file, costs about the same with ${KEPT} cards kept as on a fresh state`, () => {
  const grown = sandboxState('grown');
  for (let card = 0; card < KEPT; card += 1) {
    grown.tokenize();
    if (card % 500 === 0) grown.store.flush();
  }
  grown.store.flush();
  // The fresh state's bursts alternate with the grown state's, so both medians are taken under the same load of a
  // shared machine (measured one after the other, a load change between them once failed the bound: 9.8 against 5.4 ms).
  const fresh = sandboxState('fresh');
  for (let round = 0; round < ROUNDS; round += 1) {
    fresh.timeBurst();
    grown.timeBurst();
  }
  console.log(
    `tokenize + sale + write: ${fresh.median().toFixed(2)} ms fresh, ${grown.median().toFixed(2)} ms with ${KEPT} cards kept`,
  );
  // The JSON file made it 27 times slower; a machine shared with other work gets some slack, not that much.
  expect(grown.median()).toBeLessThan(fresh.median() * 3 + 1);
}, 120_000);
