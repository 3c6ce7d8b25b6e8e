// What bulk work costs the sandbox in process, with no HTTP (issue 10: the store's speed, in memory and in a file).
//
//   node --import tsx packages/sandbox/scripts/measure-bulk.ts [--file] [N]      (N sales, 20,000 by default)
//
// On one gateway (the memory store, or with --file a data file in a temporary folder, removed at the end) it times:
// N tokenize plus sale (a checkout's payment: order id, apiRequestKey, submitForSettlement), the store written every
// 10 payments as a burst of requests would be; the settlement batch of those N sales (the clock moved a day); a
// transaction search with no key to read by (amount range and status: every record read); a page of 50 transactions
// by ids, as the SDK's second search step asks. Prints one JSON line: wall time and CPU time (user + system) of each.
// Run it under `nice -n 10` on a shared machine and note the load average: the times are the queue for the cores too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { SandboxGateway } from '../src/core/gateway.ts';
import type { Authorization } from '../src/core/fingerprint.ts';
import { openFileStore } from '../src/store/file-store.ts';
import { createMemoryStore } from '../src/store/memory-store.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const guest: Authorization = { merchantId: 'bulk', customerId: null, expiresAt: Number.MAX_SAFE_INTEGER };

/** Wall and CPU milliseconds of `work`. */
function timed<T>(work: () => T): { result: T; wallMs: number; cpuMs: number; systemMs: number } {
  const cpu = process.cpuUsage();
  const begun = performance.now();
  const result = work();
  const wallMs = performance.now() - begun;
  const used = process.cpuUsage(cpu);
  return {
    result,
    wallMs: Math.round(wallMs),
    cpuMs: Math.round((used.user + used.system) / 1000),
    systemMs: Math.round(used.system / 1000),
  };
}

const args = process.argv.slice(2);
const inFile = args.includes('--file');
const sales = Number(args.find((arg) => /^\d+$/.test(arg)) ?? 20_000);
const folder = inFile ? mkdtempSync(join(tmpdir(), 'kassa-sandbox-bulk-')) : null;
const store = folder === null ? createMemoryStore() : openFileStore(join(folder, 'sandbox.sqlite'));
// Two hours before the daily batch (23:00 UTC), the clock still: every sale falls into that batch.
let now = Date.parse('2026-03-02T21:00:00Z');
const gateway = new SandboxGateway({
  merchantId: 'bulk',
  publicKey: 'p',
  privateKey: 'k',
  store,
  clock: () => new Date(now),
});

try {
  const sold = timed(() => {
    const ids: string[] = [];
    for (let index = 0; index < sales; index += 1) {
      const nonce = gateway.tokenizeCard(guest, { number: '4111111111111111', expirationDate: '12/2030', cvv: '123' });
      if (!nonce.ok) throw new Error(nonce.message);
      const sale = gateway.sale(
        {
          amount: `${10 + (index % 90)}.00`,
          paymentMethodNonce: nonce.value.nonce,
          orderId: `order-${index}`,
          options: { submitForSettlement: true },
        },
        `key-${index}`,
      );
      if (sale.kind !== 'success') throw new Error(`sale ${index}: ${sale.kind}`);
      ids.push(sale.transaction.id);
      if (index % 10 === 9) store.flush();
    }
    store.flush();
    return ids;
  });
  const batch = timed(() => {
    now += DAY_MS;
    gateway.runDueWork();
    store.flush();
  });
  const settled = gateway.findTransaction(sold.result[0] ?? '')?.status;
  if (settled !== 'settled') throw new Error(`the batch left the first sale ${settled}`);
  const search = timed(() => gateway.searchTransactions({ amount: { min: '20.00', max: '30.00' }, status: ['settled'] }));
  if (!search.result.ok) throw new Error(search.result.problem);
  const page = sold.result.slice(-sales / 2, -sales / 2 + 50);
  const byIds = timed(() => {
    const found = gateway.searchTransactions({ ids: page, status: ['settled'] });
    return found.ok ? found.ids.map((id) => gateway.findTransaction(id)) : [];
  });
  if (byIds.result.length !== page.length) throw new Error(`the page by ids found ${byIds.result.length} of ${page.length}`);
  process.stdout.write(
    `${JSON.stringify({
      store: inFile ? 'file' : 'memory',
      sales,
      salesMs: sold.wallMs,
      salesCpuMs: sold.cpuMs,
      salesSystemMs: sold.systemMs,
      cpuPerSaleMs: Number((sold.cpuMs / sales).toFixed(3)),
      batchMs: batch.wallMs,
      batchCpuMs: batch.cpuMs,
      batchSystemMs: batch.systemMs,
      searchMs: search.wallMs,
      searchMatches: search.result.ids.length,
      pageByIdsMs: byIds.wallMs,
    })}\n`,
  );
} finally {
  store.close();
  if (folder !== null) rmSync(folder, { recursive: true, force: true });
}
