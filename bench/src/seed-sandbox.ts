import { startSandbox } from '../../packages/sandbox/src/index.ts';
import { SandboxGateway } from '../../packages/sandbox/src/core/gateway.ts';
import { openFileStore } from '../../packages/sandbox/src/store/file-store.ts';
import type { Store } from '../../packages/sandbox/src/store/store.ts';
import { makeCheckoutPayment } from '../../packages/sandbox/src/testing/checkout-payment.ts';
import type { CheckoutPaymentIds } from '../../packages/sandbox/src/testing/checkout-payment.ts';

// `--seed-payments N`, the sandbox's side: a data file that already holds N settled payments, as the gateway of a shop
// with N payments over the last 90 days would. Made through the sandbox's own code and store in its own format, in
// process (a payment over HTTP costs milliseconds: a million would take an hour): a template of payments is made by
// the gateway as Kassa's checkout makes them, settled, then copied record by record through the store under new ids,
// each copy moved in time. What a payment leaves for good is copied; its nonce and device session are not (both are
// swept, after 3 and 27 hours; the transaction's device data keeps a copy of the session).

/** Payments made by the gateway itself; the rest are copies of them. */
const TEMPLATE = 1000;
const DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Payments written per flush of the store (3 records each). */
const FLUSH_EVERY = 500;

/** Where each kept record of a payment lives: its collection and which of the payment's ids it is stored under. */
const KEPT: ReadonlyArray<{ collection: string; id: keyof CheckoutPaymentIds }> = [
  { collection: 'transactions', id: 'transactionId' },
  { collection: 'transaction-device-data', id: 'transactionId' },
  { collection: 'api-request-keys', id: 'apiRequestKey' },
];

/**
 * `digits` characters of `alphabet` from `n` hashed (Fibonacci hashing: the product's high bits, evenly spread), as the
 * database seed spreads Kassa's ids (seed.ts).
 */
function spread(n: number, alphabet: string, digits = 4): string {
  let fraction = (Math.imul(n, 2654435761) >>> 0) / 2 ** 32;
  let out = '';
  for (let i = 0; i < digits; i += 1) {
    fraction *= alphabet.length;
    const digit = Math.floor(fraction);
    out += alphabet[digit];
    fraction -= digit;
  }
  return out;
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz';
const HEX = '0123456789abcdef';
/** Kassa's ids' alphabet (server ids.ts): the orders' ids and its request keys, which name its payments' ids. */
const KASSA_ID = '0123456789abcdefghijklmnopqrstuv';

/**
 * The ids of the seeded payment `n` (0-based), shaped as the gateway's own and Kassa's, and spread over their key
 * space as random ids are: their first characters `n` hashed, then `n` (unique). Ids in the order of `n` went at the
 * end of the file's indexes, where the run's new random ids never go: the run's sales inserted into indexes of a few
 * thousand records, not of N (as Kassa's seeded ids did before 1a1d0e1).
 */
export function seededIds(n: number): CheckoutPaymentIds {
  const kassaId = `${spread(n, KASSA_ID)}${n.toString(32)}`;
  return {
    // 8 letters and digits as the gateway's (past 36^4 payments, longer).
    transactionId: `${spread(n, BASE36)}${n.toString(36).padStart(4, '0')}`,
    deviceSessionId: `${spread(n, HEX, 8)}${n.toString(16).padStart(24, '0')}`,
    // Not kept (nonces are swept): only the template's is replaced in the records' texts.
    nonce: `5eed0000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`,
    orderId: `ord_${kassaId}`,
    apiRequestKey: `kassa-pay_${kassaId}`,
  };
}

/**
 * A copy of a record: every occurrence of the template payment's ids (in any string, the apiRequestKey's request text
 * included) replaced by the copy's, every date moved by `shiftMs`.
 */
export function copyRecord(value: unknown, ids: RegExp, replacement: ReadonlyMap<string, string>, shiftMs: number): unknown {
  if (typeof value === 'string') return value.replace(ids, (id) => replacement.get(id) ?? id);
  if (value instanceof Date) return new Date(value.getTime() + shiftMs);
  if (Array.isArray(value)) return value.map((item) => copyRecord(item, ids, replacement, shiftMs));
  if (value === null || typeof value !== 'object') return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = copyRecord(item, ids, replacement, shiftMs);
  return copy;
}

const escaped = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * Seeds the sandbox data file `file` (made if missing) with `count` settled payments spread over the 90 days before
 * `madeAt` (epoch ms): `template` of them made by the gateway, the others copies of those.
 */
export async function seedSandbox(
  file: string,
  count: number,
  currencyIsoCode: string,
  template = TEMPLATE,
  madeAt = Date.now(),
): Promise<void> {
  // Started once so the file is made and names its merchant, as `npm start`'s sandbox would leave it.
  const started = await startSandbox({ dataFile: file, currencyIsoCode });
  const { merchantId, publicKey, privateKey } = started;
  await started.close();
  const store: Store = openFileStore(file);
  try {
    const step = Math.floor((DAYS * DAY_MS) / Math.max(count, 1));
    // The payments' sandbox time: from 92 days ago, the template's settlement batches two days after the last of it.
    const first = madeAt - (DAYS + 2) * DAY_MS;
    let now = first;
    const gateway = new SandboxGateway({ merchantId, publicKey, privateKey, store, currencyIsoCode, clock: () => new Date(now) });
    const made: CheckoutPaymentIds[] = [];
    for (let n = 0; n < Math.min(template, count); n += 1) {
      now = first + n * step;
      made.push(makeCheckoutPayment(gateway, `template-${n}`, `${10 + (n % 90)}.50`));
    }
    now += 2 * DAY_MS;
    gateway.runDueWork();
    store.flush();
    const records = made.map((ids) => ({
      ids,
      pattern: new RegExp(Object.values(ids).map(escaped).join('|'), 'g'),
      records: KEPT.map(({ collection, id }) => {
        const record = store.collection(collection).get(ids[id]);
        if (record === undefined)
          throw new Error(`the sandbox kept no ${collection} record of a payment: seed-sandbox.ts is out of date`);
        return { collection, id, record };
      }),
    }));
    for (let n = made.length; n < count; n += 1) {
      const copied = records[n % made.length];
      if (copied === undefined) throw new Error('no template payment');
      const ids = seededIds(n);
      const replacement = new Map(
        (Object.keys(ids) as Array<keyof CheckoutPaymentIds>).map((name) => [copied.ids[name], ids[name]]),
      );
      const shiftMs = (n - (n % made.length)) * step;
      for (const { collection, id, record } of copied.records)
        store.collection(collection).set(ids[id], copyRecord(record, copied.pattern, replacement, shiftMs));
      if (n % FLUSH_EVERY === 0) store.flush();
    }
  } finally {
    store.close();
  }
}
