import { CompiledQuery, sql } from 'kysely';
import { openDatabase } from '../db/connect.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';
import { seedPayments } from '../testing/seed-payments.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { sqliteEngine } from '../testing/engines.ts';
import { paymentsPageQuery } from './payments.query.ts';
import type { PaymentsFilter } from './payments.query.ts';

/**
 * SQLite's plan for the list's queries (PostgreSQL's planner picks by table statistics, so on a test's few rows its
 * plan says nothing): walking an index in order, with no sort of the whole table, is what keeps a page fast at
 * 100,000 payments.
 */
describe("the payments list's query plans on SQLite", () => {
  const engine = sqliteEngine();
  let db: Db;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const opened = await engine.open();
    db = opened.handle.db;
    cleanup = opened.cleanup;
  });
  afterAll(() => cleanup());

  async function plan(filter: Omit<PaymentsFilter, 'limit'>): Promise<string> {
    const compiled = paymentsPageQuery(db, { ...filter, limit: 25 }).compile();
    const result = await db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return result.rows.map((row) => row.detail).join('\n');
  }

  it.each([
    [{}, 'payments_created_amount'],
    [{ status: 'declined' as const }, 'payments_status_created'],
    [{ cardLastFour: '4242' }, 'payments_last_four_created'],
    [{ after: { amount: 1200, createdAt: '2026-11-23T10:00:00.000Z', id: 'pay_x' } }, 'payments_created_amount'],
    [{ sort: 'amount_desc' as const }, 'payments_amount_created'],
    [
      { sort: 'amount_asc' as const, after: { amount: 1200, createdAt: '2026-11-23T10:00:00.000Z', id: 'pay_x' } },
      'payments_amount_created',
    ],
    [{ sort: 'oldest' as const }, 'payments_created_amount'],
    // An amount range newest first: the date order's walk, testing the amount in the index, not the range sorted.
    [{ minAmount: 10_000, maxAmount: 20_000 }, 'payments_created_amount'],
    [
      { minAmount: 10_000, maxAmount: 20_000, after: { amount: 1200, createdAt: '2026-11-23T10:00:00.000Z', id: 'pay_x' } },
      'payments_created_amount',
    ],
    [{ sort: 'amount_asc' as const, minAmount: 10_000, maxAmount: 20_000 }, 'payments_amount_created (amount>? AND amount<?)'],
  ])("%j walks %s in the sort's order, without sorting the table", async (filter, index) => {
    const text = await plan(filter);
    expect(text, text).toContain(index);
    expect(text).not.toContain('USE TEMP B-TREE FOR ORDER BY');
  });

  it("finds an order number by its unique index, then only that order's attempts (a sort of a handful of rows)", async () => {
    const text = await plan({ orderNumber: 1001 });
    expect(text, text).toContain('orders_number');
    expect(text, text).toContain('payments_order');
  });
});

describe("SQLite's statistics, which its planner needs to choose the indexes well (payments.scale.test.ts)", () => {
  it('are gathered when the server opens a database that has rows (PRAGMA optimize)', async () => {
    const temp = tempSqliteFile();
    const first = await openDatabase({ engine: 'sqlite', file: temp.file });
    await seedPayments(first.db, { payments: 2_000, customers: 50, days: 30, seed: 3 });
    await first.close();
    const reopened = await openDatabase({ engine: 'sqlite', file: temp.file });
    try {
      const stats = await sql<{ tbl: string }>`select tbl from sqlite_stat1`.execute(reopened.db);
      expect(stats.rows.map((row) => row.tbl)).toEqual(expect.arrayContaining(['payments', 'orders', 'accounts']));
    } finally {
      await reopened.close();
      temp.cleanup();
    }
  });
});
