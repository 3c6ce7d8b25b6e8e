import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type braintree from 'braintree';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../packages/sandbox/src/index.ts';
import type { Sandbox } from '../../packages/sandbox/src/index.ts';
import { gatewayFor } from '../../packages/sandbox/src/testing/sandbox.ts';
import { seedSandbox, seededIds } from './seed-sandbox.ts';

// The sandbox's seeded data file read back by a real sandbox through the official SDK: 25 payments, 10 made by the
// gateway and 15 copied from them.

const DAY_MS = 24 * 60 * 60 * 1000;
let dir: string;
let sandbox: Sandbox;
let gateway: braintree.BraintreeGateway;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'kassa-seed-sandbox-'));
  const file = join(dir, 'sandbox.sqlite');
  await seedSandbox(file, 25, 'EUR', 10);
  sandbox = await startSandbox({ dataFile: file, currencyIsoCode: 'EUR' });
  gateway = gatewayFor(sandbox);
});

afterAll(async () => {
  await sandbox?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe("the sandbox's seed (--seed-payments)", () => {
  it('holds the copies as settled sales with their own ids and order ids, spread over the last 90 days in order', async () => {
    const found = await Promise.all([10, 17, 24].map((n) => gateway.transaction.find(seededIds(n).transactionId)));
    expect(found.map((sale) => [sale.id, sale.orderId, sale.status, sale.type])).toEqual(
      [10, 17, 24].map((n) => [seededIds(n).transactionId, seededIds(n).orderId, 'settled', 'sale']),
    );
    const times = found.map((sale) => Date.parse(sale.createdAt));
    expect(times[0]).toBeGreaterThan(Date.now() - 93 * DAY_MS);
    expect(times[0]).toBeLessThan(times[1] ?? 0);
    expect(times[1]).toBeLessThan(times[2] ?? 0);
    expect(times[2]).toBeLessThan(Date.now() - DAY_MS);
  });

  it('indexes the copies by creation time: a createdAt search finds all 25 payments', async () => {
    const stream = gateway.transaction.search((search) => {
      search.createdAt().min(new Date(Date.now() - 93 * DAY_MS));
    });
    const ids: string[] = [];
    for await (const transaction of stream as AsyncIterable<braintree.Transaction>) ids.push(transaction.id);
    expect(ids).toHaveLength(25);
    expect(ids).toEqual(expect.arrayContaining([seededIds(10).transactionId, seededIds(24).transactionId]));
  });

  it("names the payments with ids of the gateway's and Kassa's shapes, spread over their key space, each once", () => {
    const ids = Array.from({ length: 2000 }, (_, n) => seededIds(n));
    const firsts = (pick: (id: ReturnType<typeof seededIds>) => string, at: number) =>
      new Set(ids.map((id) => pick(id)[at])).size;
    // Every character of each alphabet starts some id (ids in the order of n shared their first characters).
    expect([
      firsts((id) => id.transactionId, 0),
      firsts((id) => id.deviceSessionId, 0),
      firsts((id) => id.orderId, 4),
      firsts((id) => id.apiRequestKey, 10),
    ]).toEqual([36, 16, 32, 32]);
    for (const id of ids) {
      expect(id.transactionId).toMatch(/^[0-9a-z]{8}$/);
      expect(id.deviceSessionId).toMatch(/^[0-9a-f]{32}$/);
      expect(id.orderId).toMatch(/^ord_[0-9a-v]+$/);
      expect(id.apiRequestKey).toBe(`kassa-pay_${id.orderId.slice(4)}`);
    }
    for (const name of ['transactionId', 'deviceSessionId', 'orderId'] as const)
      expect(new Set(ids.map((id) => id[name])).size).toBe(ids.length);
  });

  it('takes a new sale on the seeded file', async () => {
    const sale = await gateway.transaction.sale({ amount: '12.00', paymentMethodNonce: 'fake-valid-nonce' });
    expect(sale.success).toBe(true);
  });
});
