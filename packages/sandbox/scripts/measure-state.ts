// What the sandbox costs with a large state (issue 10: no unbounded state anywhere, the sandbox's included).
//
//   tsx packages/sandbox/scripts/measure-state.ts build FILE N   adds N payments to the data file FILE
//   node --expose-gc --import tsx packages/sandbox/scripts/measure-state.ts measure FILE
//        starts the sandbox on FILE (as npm start does) and prints one JSON line: the start-up time, the process's
//        resident memory and V8 heap once started, the median and 90th percentile of a tokenize plus sale over HTTP
//        (the client API's tokenization, then the official SDK's transaction.sale), and the resident memory after them.
//
// A payment is what Kassa's checkout makes: a device session from the collector, a tokenized card, a sale with the
// order id, the device data, an apiRequestKey and submitForSettlement, then its settlement batch. The sandbox's clock
// moves 10 s per payment (500,000 payments span 58 days), so nonces expire and are swept as they would be.
import { performance } from 'node:perf_hooks';
import { SandboxGateway } from '../src/core/gateway.ts';
import { startSandbox } from '../src/index.ts';
import { openFileStore } from '../src/store/file-store.ts';
import { makeCheckoutPayment } from '../src/testing/checkout-payment.ts';
import { decodeClientToken, gatewayFor, tokenizeCard } from '../src/testing/sandbox.ts';

const MERCHANT = { merchantId: 'measure', publicKey: 'measurepublic', privateKey: 'measureprivate' };
const STEP_MS = 10_000;
const ROUNDS = 200;

function build(file: string, payments: number): void {
  const store = openFileStore(file);
  const started = Date.now();
  // Sandbox time from the start of 2026: the payments are in the past when the sandbox starts on the file.
  let now = Date.parse('2026-01-01T00:00:00Z');
  const base = now;
  const gateway = new SandboxGateway({ ...MERCHANT, store, clock: () => new Date(now) });
  for (let payment = 0; payment < payments; payment += 1) {
    now += STEP_MS;
    makeCheckoutPayment(gateway, `${started}-${payment}`, `${10 + (payment % 90)}.50`);
    if (payment % 1000 === 999) {
      gateway.runDueWork();
      store.flush();
      if (payment % 50_000 === 49_999) process.stdout.write(`${payment + 1} payments\n`);
    }
  }
  gateway.runDueWork();
  store.close();
  process.stdout.write(
    `${payments} payments in ${((Date.now() - started) / 1000).toFixed(1)} s (sandbox time ${new Date(base).toISOString()} -> ${new Date(now).toISOString()})\n`,
  );
}

function percentile(sorted: readonly number[], share: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * share))] ?? Number.NaN;
}

function memory(): { rssMiB: number; heapMiB: number } {
  (globalThis as { gc?: () => void }).gc?.();
  const { rss, heapUsed } = process.memoryUsage();
  return { rssMiB: Math.round(rss / 2 ** 20), heapMiB: Math.round(heapUsed / 2 ** 20) };
}

async function measure(file: string): Promise<void> {
  const before = memory();
  const started = performance.now();
  const sandbox = await startSandbox({ dataFile: file, publicKey: MERCHANT.publicKey, privateKey: MERCHANT.privateKey });
  const startMs = performance.now() - started;
  const afterStart = memory();
  try {
    const gateway = gatewayFor(sandbox);
    const token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
    const times: number[] = [];
    for (let round = 0; round < ROUNDS + 20; round += 1) {
      const begun = performance.now();
      const nonce = await tokenizeCard(token, { number: '4111111111111111', cvv: '123' });
      const sale = await gateway.transaction.sale({
        amount: '10.00',
        paymentMethodNonce: nonce,
        orderId: `measure-${round}`,
        options: { submitForSettlement: true },
      });
      if (!sale.success) throw new Error(`sale: ${sale.message}`);
      // The first rounds warm the JIT and the connections up.
      if (round >= 20) times.push(performance.now() - begun);
    }
    times.sort((a, b) => a - b);
    process.stdout.write(
      `${JSON.stringify({
        file,
        startMs: Math.round(startMs),
        rssBeforeStartMiB: before.rssMiB,
        rssAfterStartMiB: afterStart.rssMiB,
        heapAfterStartMiB: afterStart.heapMiB,
        tokenizeSaleP50Ms: Number(percentile(times, 0.5).toFixed(2)),
        tokenizeSaleP90Ms: Number(percentile(times, 0.9).toFixed(2)),
        rssAfterSalesMiB: memory().rssMiB,
      })}\n`,
    );
  } finally {
    await sandbox.close();
  }
}

const [command, file, count] = process.argv.slice(2);
if (command === 'build' && file !== undefined && count !== undefined && /^\d+$/.test(count)) build(file, Number(count));
else if (command === 'measure' && file !== undefined) await measure(file);
else {
  process.stderr.write('usage: measure-state.ts build FILE N | measure FILE\n');
  process.exitCode = 2;
}
