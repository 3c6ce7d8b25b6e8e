import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SandboxGateway } from '../core/gateway.ts';
import type { Authorization } from '../core/fingerprint.ts';
import { NONCE_LIFETIME_MS } from '../core/nonces.ts';
import { openFileStore } from './file-store.ts';
import { createMemoryStore } from './memory-store.ts';
import type { SqliteStore } from './sqlite-store.ts';

// Issue 10: no unbounded state anywhere, the sandbox's included. The store used to hold every record in memory (read
// whole at start: 170 MiB after 45,000 payments); it now reads records on demand and keeps a bounded cache. These
// tests fail if it goes back to holding everything, or if an operation reads more records as the state grows.

const PAYMENTS = 300;
const CACHED = 100;
/** The sandbox's clock moves this much per payment: nonces expire (3 hours) and are swept along the way. */
const STEP_MS = 60_000;
// Four hours before the daily settlement batch (23:00 UTC): the first payments are settled by the end.
const START = Date.parse('2026-03-01T19:00:00Z');

let folder: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'kassa-sandbox-bounded-'));
});
afterEach(() => {
  rmSync(folder, { recursive: true, force: true });
});

const guest: Authorization = { merchantId: 'm', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };

function gatewayOn(store: SqliteStore, now: () => number): SandboxGateway {
  return new SandboxGateway({ merchantId: 'm', publicKey: 'p', privateKey: 'k', store, clock: () => new Date(now()) });
}

/** A checkout's payment: a tokenized card, a sale submitted for settlement with an order id and an apiRequestKey. */
function pay(gateway: SandboxGateway, index: number): string {
  const nonce = gateway.tokenizeCard(guest, { number: '4111111111111111', expirationDate: '12/2030', cvv: '123' });
  if (!nonce.ok) throw new Error(nonce.message);
  const sale = gateway.sale(
    { amount: '10.00', paymentMethodNonce: nonce.value.nonce, orderId: `o-${index}`, options: { submitForSettlement: true } },
    `key-${index}`,
  );
  if (sale.kind !== 'success') throw new Error(`sale ${index}: ${sale.kind}`);
  return sale.transaction.id;
}

/** PAYMENTS payments, settled by their batches as they fall due; answers the transaction ids and the clock. */
function payMany(store: SqliteStore): { ids: string[]; now: () => number; gateway: SandboxGateway } {
  let now = START;
  const gateway = gatewayOn(store, () => now);
  const ids: string[] = [];
  for (let index = 0; index < PAYMENTS; index += 1) {
    now += STEP_MS;
    ids.push(pay(gateway, index));
    if (index % 100 === 99) {
      gateway.runDueWork();
      store.flush();
    }
  }
  store.flush();
  return { ids, now: () => now, gateway };
}

describe('the store holds a bounded number of records whatever the size of the state', () => {
  it(`keeps at most its cache's ${CACHED} records after ${PAYMENTS} payments, and a payment reads as many records at the end as at the start`, () => {
    const store = openFileStore(join(folder, 'sandbox.sqlite'), { cachedRecords: CACHED });
    let now = START;
    const gateway = gatewayOn(store, () => now);
    const readBy = (work: () => void): number => {
      const before = store.recordsRead;
      work();
      return store.recordsRead - before;
    };
    const first = readBy(() => pay(gateway, -1));
    store.flush();
    for (let index = 0; index < PAYMENTS; index += 1) {
      now += STEP_MS;
      pay(gateway, index);
      if (index % 100 === 99) {
        gateway.runDueWork();
        store.flush();
        expect(store.recordsHeld).toBeLessThanOrEqual(CACHED);
      }
    }
    store.flush();
    const last = readBy(() => pay(gateway, PAYMENTS));
    // Both payments read what a payment reads from disk (its nonce's sweep, the key checks), not the state.
    expect(last).toBeLessThanOrEqual(Math.max(first, 5));
    store.close();
  });

  it('starts on a large file reading nothing, and finds old and new records by id, key and range reading only those', () => {
    const file = join(folder, 'sandbox.sqlite');
    const first = openFileStore(file, { cachedRecords: CACHED });
    const { ids, now } = payMany(first);
    first.close();

    const store = openFileStore(file, { cachedRecords: CACHED });
    const gateway = gatewayOn(store, now);
    expect([store.recordsHeld, store.recordsRead]).toEqual([0, 0]);
    expect(gateway.findTransaction(ids[0] ?? '')?.status).toBe('settled');
    expect(store.recordsRead).toBe(1);
    // The last 10 payments by creation time (the SDK's createdAt criterion): 10 records read, not all of them.
    const since = new Date(now() - 10 * STEP_MS + 1).toISOString();
    const read = store.recordsRead;
    const found = gateway.searchTransactions({ created_at: { min: since } });
    expect(found.ok ? found.ids : found.problem).toEqual(ids.slice(-10).reverse());
    expect(store.recordsRead - read).toBe(10);
    // Expired nonces were swept as payments went: only the last 3 hours' are kept.
    const nonces = [...store.collection<{ createdAt: number }>('nonces').inOrder()];
    expect(nonces.length).toBeLessThanOrEqual(NONCE_LIFETIME_MS / STEP_MS + 1);
    expect(store.recordsHeld).toBeLessThanOrEqual(CACHED);
    store.close();
  });

  it('in memory too: the state lives in a temporary database, the process holds the cache only', () => {
    const store = createMemoryStore({ cachedRecords: CACHED });
    const { ids, gateway } = payMany(store);
    expect(store.recordsHeld).toBeLessThanOrEqual(CACHED);
    expect(gateway.findTransaction(ids[0] ?? '')?.status).toBe('settled');
    store.close();
  });
});
