import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { Socket } from 'node:net';
import { CompiledQuery, Migrator, sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { findOwnedOrderWithLines, insertOrder, lastOrderNumber } from '../orders/orders.repository.ts';
import type { DatabaseConfig } from '../config.ts';
import { IdempotencyRepository } from '../payments/idempotency.repository.ts';
import { insertPendingPayment, recordOutcome } from '../payments/payments.repository.ts';
import type { AttemptOutcome } from '../payments/payment.ts';
import { ENGINES, postgresEngine, sqliteEngine } from '../testing/engines.ts';
import { tempSqliteFile } from '../testing/sqlite.ts';
import { WAL_FRAMES_BOUND } from './checkpointer.ts';
import { migrate, openDatabase } from './connect.ts';
import type { Db } from './connect.ts';
import { migrations } from './migrations.ts';
import { prepared } from './prepared.ts';
import { transaction } from './sqlite-at-once.ts';

const insertHits = prepared((db, p: { bucket: string; window_ends_at: string; hits: number }) =>
  db.insertInto('rate_limit_hits').values(p),
);
const insertHitsReturning = prepared((db, p: { bucket: string; window_ends_at: string; hits: number }) =>
  db.insertInto('rate_limit_hits').values(p).returning('hits'),
);
const hitsOf = prepared((db, p: { bucket: string }) =>
  db.selectFrom('rate_limit_hits').select(['bucket', 'hits']).where('bucket', '=', p.bucket),
);
/** The same column as text, under the same name, and a count (PostgreSQL's bigint, which pg gives as a string). */
const hitsAsText = prepared((db, p: { bucket: string }) =>
  db
    .selectFrom('rate_limit_hits')
    .select((eb) => ['bucket', eb.cast<string>('hits', 'text').as('hits'), eb.fn.countAll().over().as('rows')])
    .where('bucket', '=', p.bucket),
);
const allHitsOf = prepared((db, p: { bucket: string }) =>
  db.selectFrom('rate_limit_hits').selectAll().where('bucket', '=', p.bucket),
);
/** The PostgreSQL backend (a connection's process) that ran each statement. */
const backendOfRead = prepared((db, p: { divisor: number }) =>
  db.selectNoFrom([sql<number>`pg_backend_pid()`.as('pid'), sql<number>`1 / ${p.divisor}::int`.as('quotient')]),
);
const backendOfWrite = (commit?: 'relaxed') =>
  prepared(
    (db, p: { bucket: string; window_ends_at: string; hits: number }) =>
      db.insertInto('rate_limit_hits').values(p).returning(sql<number>`pg_backend_pid()`.as('pid')),
    commit === undefined ? {} : { commit },
  );
const backendOfFlushedWrite = backendOfWrite();
const backendOfRelaxedWrite = backendOfWrite('relaxed');
/** Selects that may wait for a lock: one with a locking clause, one whose WITH writes. */
const backendOfLockingRead = prepared((db, p: { bucket: string }) =>
  db.selectFrom('rate_limit_hits').select(sql<number>`pg_backend_pid()`.as('pid')).where('bucket', '=', p.bucket).forUpdate(),
);
const backendOfWritingWith = prepared((db, p: { bucket: string; window_ends_at: string; hits: number }) =>
  db
    .with('written', (qb) => qb.insertInto('rate_limit_hits').values(p).returning('bucket'))
    .selectFrom('written')
    .select(sql<number>`pg_backend_pid()`.as('pid')),
);
/** An order's line, for the orders the tests make. */
const MUG = {
  productId: 'prd_mug',
  name: 'Mug',
  quantity: 1,
  unitPrice: { amount: 100, currency: 'EUR' },
  total: { amount: 100, currency: 'EUR' },
};
/** A pending attempt to pay an order of MUG. */
async function pendingAttempt(db: Db, orderId: string) {
  const attempt = await insertPendingPayment(db, {
    orderId,
    amount: MUG.total,
    idempotencyRef: null,
    nonce: 'n',
    deviceData: null,
    merchantAccountId: null,
  });
  if (attempt === undefined) throw new Error('attempt not made');
  return attempt;
}
/** The outcome of an attempt charged to a Visa card ending in `lastFour`. */
function chargedToVisa(transactionId: string, lastFour: string): AttemptOutcome {
  const card = { brand: 'Visa', lastFour };
  return { kind: 'succeeded', transactionId, paymentMethodType: 'credit_card', card, threeDSecure: null };
}
const addHits = prepared((db, p: { bucket: string; by: number }) =>
  db
    .updateTable('rate_limit_hits')
    .set((eb) => ({ hits: eb('hits', '+', p.by) }))
    .where('bucket', '=', p.bucket),
);

describe.each(ENGINES.map((make) => [make().name, make] as const))('database on %s', (name, make) => {
  const engine = make();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it('migrates to the latest schema, and migrating again is a no-op', async () => {
    const { handle, cleanup } = await engine.open();
    try {
      await migrate(handle.db);
      const tables = (await handle.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(
        expect.arrayContaining([
          'accounts',
          'botcheck_uses',
          'counters',
          'idempotency_keys',
          'order_items',
          'orders',
          'payments',
          'products',
          'sessions',
        ]),
      );
    } finally {
      await cleanup();
    }
  });

  it('migrates a database some migrations behind, and refuses one that ran a migration this code does not know', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    const executed = async () =>
      (await sql<{ name: string }>`select name from kysely_migration`.execute(db)).rows.map((row) => row.name).sort();
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0015_disputes_by_transaction')).error).toBeUndefined();
      await migrate(db);
      expect(await executed()).toEqual(Object.keys(migrations).sort());
      const payments = (await db.introspection.getTables()).find((table) => table.name === 'payments');
      expect(payments?.columns.map((column) => column.name)).toContain('velocity_subjects');

      await sql`insert into kysely_migration (name, timestamp) values ('9999_of_a_newer_kassa', ${new Date().toISOString()})`.execute(
        db,
      );
      await expect(migrate(db)).rejects.toThrow(/9999_of_a_newer_kassa is missing/);
    } finally {
      await cleanup();
    }
  });

  it("indexes velocity counts by their key alone on SQLite (0022: its sweeper reads rowids), by their minute too on PostgreSQL; 0022's down puts SQLite's back", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    const query =
      name === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'velocity_counts'`
        : sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'velocity_counts'`;
    const indexes = async () => (await query.execute(db)).rows.map((row) => row.name).sort();
    try {
      const both = ['velocity_counts_age', 'velocity_counts_key'];
      expect(await indexes()).toEqual(name === 'sqlite' ? ['sqlite_autoindex_velocity_counts_1'] : both);
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0021_payments_order_one_index')).error).toBeUndefined();
      expect(await indexes()).toEqual(name === 'sqlite' ? ['sqlite_autoindex_velocity_counts_1', 'velocity_counts_age'] : both);
    } finally {
      await cleanup();
    }
  });

  it("indexes Idempotency-Keys, spent bot-check tokens and refusals by their keys (refusals by (created_at, id) too) alone on SQLite (0023: its sweeper reads rowids and that index), by their age too on PostgreSQL; 0023's down puts SQLite's back", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    const tables = sql.join(['idempotency_keys', 'botcheck_uses', 'velocity_refusals']);
    const query =
      name === 'sqlite'
        ? sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name in (${tables})`
        : sql<{ name: string }>`select indexname as name from pg_indexes where tablename in (${tables})`;
    const indexes = async () => (await query.execute(db)).rows.map((row) => row.name).sort();
    const keys =
      name === 'sqlite'
        ? ['sqlite_autoindex_botcheck_uses_1', 'sqlite_autoindex_idempotency_keys_1', 'sqlite_autoindex_velocity_refusals_1']
        : ['botcheck_uses_pkey', 'idempotency_keys_pk', 'velocity_refusals_pkey'];
    const all = [
      ...keys,
      'velocity_refusals_listed',
      'botcheck_uses_expires',
      'idempotency_keys_created',
      'velocity_refusals_age',
    ].sort();
    try {
      expect(await indexes()).toEqual(name === 'sqlite' ? [...keys, 'velocity_refusals_listed'].sort() : all);
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo('0022_velocity_counts_swept_by_rowid')).error).toBeUndefined();
      expect(await indexes()).toEqual(all);
    } finally {
      await cleanup();
    }
  });

  it('allows one live (pending or succeeded) payment per order, many declined ones', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const now = new Date().toISOString();
      await db
        .insertInto('orders')
        .values({
          id: 'ord_x',
          status: 'pending',
          total_amount: 100,
          currency: 'EUR',
          owner_account_id: null,
          owner_session_id: 'ses_x',
          created_at: now,
          updated_at: now,
          number: 1,
        })
        .execute();
      const payment = (id: string, status: string) => ({
        id,
        order_id: 'ord_x',
        status,
        amount: 100,
        currency: 'EUR',
        idempotency_ref: null,
        nonce: `fake-nonce-${id}`,
        device_data: null,
        merchant_account_id: null,
        transaction_id: null,
        card_brand: null,
        card_last_four: null,
        decline_reason: null,
        processor_response_code: null,
        processor_response_text: null,
        gateway_rejection_reason: null,
        created_at: now,
        updated_at: now,
      });
      await db
        .insertInto('payments')
        .values([payment('pay_1', 'declined'), payment('pay_2', 'declined'), payment('pay_3', 'pending')])
        .execute();
      const second = await db
        .insertInto('payments')
        .values(payment('pay_4', 'succeeded'))
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      expect(Number(second.numInsertedOrUpdatedRows)).toBe(0);
    } finally {
      await cleanup();
    }
  });

  it.runIf(name === 'sqlite')(
    'keeps a pending attempt out of the indexes of what its outcome tells (0019), and puts the charged one in them',
    async () => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      // The entries of each index (one page each in a new database: its root's cells), by SQLite's dbstat.
      const entries = async () =>
        Object.fromEntries(
          (
            await sql<{ name: string; entries: number }>`select name, sum(ncell) as entries from dbstat
              where name in ('payments_transaction', 'payments_last_four_created') group by name`.execute(db)
          ).rows.map((row) => [row.name, row.entries]),
        );
      try {
        const order = await insertOrder(db, { owner: { accountId: null, sessionId: 'ses_x' }, items: [MUG], total: MUG.total });
        const attempt = await pendingAttempt(db, order.id);
        expect(await entries()).toEqual({ payments_last_four_created: 0, payments_transaction: 0 });
        await recordOutcome(db, attempt, chargedToVisa('t_1', '4242'));
        expect(await entries()).toEqual({ payments_last_four_created: 1, payments_transaction: 1 });
      } finally {
        await cleanup();
      }
    },
  );

  it("finds a payment by its transaction id (a settlement's update, the disputes' join) and its card's last four by their indexes", async () => {
    const { handle, cleanup } = await engine.open();
    try {
      // The statements' shapes (webhooks/notifications.ts settle, admin/disputes.query.ts, admin/payments.query.ts), each
      // with its value bound as the server binds it: the partial indexes (0019) serve `= ?`, which implies `is not null`.
      const shapes = [
        'update payments set settlement_status = $1 where transaction_id = $2 and settlement_status_at is null',
        'select d.id, p.id from disputes d left join payments p on p.transaction_id = d.transaction_id where d.id = $1',
        'select id from payments where card_last_four = $1 order by created_at desc, id desc limit 26',
      ];
      const plans = await handle.db.connection().execute(async (connection) => {
        const values = (shape: string) => (shape.match(/\$\d/g) ?? []).map(() => 'x');
        if (name === 'sqlite') {
          return Promise.all(
            shapes.map(async (shape) => {
              const text = `explain query plan ${shape.replace(/\$\d/g, '?')}`;
              const plan = await connection.executeQuery<{ detail: string }>(CompiledQuery.raw(text, values(shape)));
              return plan.rows.map((row) => row.detail).join(' | ');
            }),
          );
        }
        // A generic plan (as a prepared statement's after its first runs), and no table scan where an index serves.
        await sql`set enable_seqscan = off`.execute(connection);
        await sql`set plan_cache_mode = force_generic_plan`.execute(connection);
        return Promise.all(
          shapes.map(async (shape, i) => {
            const types = values(shape).map(() => 'text');
            await sql.raw(`prepare shape${i}(${types.join(', ')}) as ${shape}`).execute(connection);
            // Literal values: EXPLAIN EXECUTE takes no bound ones (the plan is the generic one all the same).
            const text = `explain execute shape${i}(${types.map(() => "'x'").join(', ')})`;
            const plan = await sql.raw<{ 'QUERY PLAN': string }>(text).execute(connection);
            return plan.rows.map((row) => row['QUERY PLAN']).join(' | ');
          }),
        );
      });
      expect(plans).toEqual([
        expect.stringContaining('payments_transaction'),
        expect.stringContaining('payments_transaction'),
        expect.stringContaining('payments_last_four_created'),
      ]);
    } finally {
      await cleanup();
    }
  });

  it("writes an attempt to one index of its order's (0021): an order's attempts and its live one in one", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const owner = { accountId: null, sessionId: 'ses_x' };
      const attempts = [];
      for (let run = 0; run < 5; run += 1) {
        const order = await insertOrder(db, { owner, items: [MUG], total: MUG.total });
        attempts.push(await pendingAttempt(db, order.id));
      }
      const [charged, declined] = attempts;
      if (charged === undefined || declined === undefined) throw new Error('attempts not made');
      await recordOutcome(db, charged, chargedToVisa('t_1', '1111'));
      await recordOutcome(db, declined, { kind: 'declined', reason: 'processor_declined', transactionId: 't_2' });
      // The entries of payments' indexes: on PostgreSQL an update of an indexed column adds the row's new version to
      // every index (the old entries stay until a vacuum), on SQLite the row's entry changes in place.
      let entries: number;
      if (name === 'sqlite') {
        const stats = await sql<{ n: number }>`select sum(ncell) as n from dbstat
          where name in (select name from sqlite_master where type = 'index' and tbl_name = 'payments')`.execute(db);
        entries = Number(stats.rows[0]?.n);
      } else {
        await sql`create extension if not exists pgstattuple`.execute(db);
        const stats = await sql<{ n: string }>`select sum((pgstattuple(indexrelid)).tuple_count) as n from pg_index
          where indrelid = 'payments'::regclass`.execute(db);
        entries = Number(stats.rows[0]?.n);
      }
      // 5 attempts' inserts and 2 outcomes: on PostgreSQL 5 entries at each insert, 7 and 6 at the outcomes.
      expect(entries).toBe(name === 'sqlite' ? 28 : 38);
    } finally {
      await cleanup();
    }
  });

  it('numbers orders made before 0002 by age, and new orders after them, one apart', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
      const down = await migrator.migrateTo('0001_initial');
      expect(down.error).toBeUndefined();
      // Inserted out of age order: numbering follows created_at, not insertion.
      for (const [id, createdAt] of [
        ['ord_b', '2026-01-02T00:00:00.000Z'],
        ['ord_a', '2026-01-01T00:00:00.000Z'],
      ]) {
        await sql`insert into orders (id, status, total_amount, currency, owner_session_id, created_at, updated_at)
          values (${id}, 'paid', 100, 'EUR', 'ses_x', ${createdAt}, ${createdAt})`.execute(db);
      }
      await migrate(db);
      const numbered = await db.selectFrom('orders').select(['id', 'number']).orderBy('number').execute();
      expect(numbered).toEqual([
        { id: 'ord_a', number: 1001 },
        { id: 'ord_b', number: 1002 },
      ]);
      const owner = { accountId: null, sessionId: 'ses_x' };
      const [first, second] = await Promise.all([0, 1].map(() => insertOrder(db, { owner, items: [MUG], total: MUG.total })));
      expect([first?.number, second?.number].sort()).toEqual([1003, 1004]);
      expect(await lastOrderNumber(db)).toBe(1004);
      // Migrated down and up again (0017 on PostgreSQL: the sequence back to the counter and back), numbering goes on.
      expect((await migrator.migrateTo('0016_attempt_velocity_subjects')).error).toBeUndefined();
      await migrate(db);
      expect((await insertOrder(db, { owner, items: [MUG], total: MUG.total })).number).toBe(1005);
    } finally {
      await cleanup();
    }
  });

  it.runIf(name === 'postgres')(
    "makes an order without waiting for another order's commit: its number from the sequence (a rolled-back order's is skipped)",
    async () => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      try {
        const order = (on: Db) =>
          insertOrder(on, { owner: { accountId: null, sessionId: 'ses_x' }, items: [MUG], total: MUG.total });
        const numbers = await db
          .transaction()
          .execute(async (trx) => {
            const held = await order(trx);
            // With the counter row (before 0017) it would wait for the open transaction's end, which held the row's lock.
            const other = await Promise.race([
              order(db),
              new Promise<never>((_, reject) => setTimeout(() => reject(new Error('waited for the other order')), 5_000)),
            ]);
            throw Object.assign(new Error('roll back'), { numbers: [held.number, other.number] });
          })
          .catch((error: { numbers?: number[] }) => error.numbers);
        expect(numbers).toEqual([1001, 1002]);
        expect((await order(db)).number).toBe(1003);
        expect(await db.selectFrom('orders').select('number').orderBy('number').execute()).toEqual([
          { number: 1002 },
          { number: 1003 },
        ]);
      } finally {
        await cleanup();
      }
    },
  );

  it("runs a query compiled once with each run's values, in and out of a transaction, and refuses a missing one", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const window_ends_at = new Date().toISOString();
      expect(await insertHits.affected(db, { bucket: 'first', window_ends_at, hits: 1 })).toBe(1);
      expect(await insertHits.affected(db, { bucket: 'second', window_ends_at, hits: 20 })).toBe(1);
      expect(await hitsOf.takeFirst(db, { bucket: 'first' })).toEqual({ bucket: 'first', hits: 1 });
      expect(await hitsOf.takeFirst(db, { bucket: 'second' })).toEqual({ bucket: 'second', hits: 20 });
      expect(await hitsOf.takeFirst(db, { bucket: 'third' })).toBeUndefined();

      const prepares = await db.transaction().execute(async (trx) => {
        expect(await addHits.affected(trx, { bucket: 'second', by: 5 })).toBe(1);
        expect(await hitsOf.takeFirst(trx, { bucket: 'second' })).toEqual({ bucket: 'second', hits: 25 });
        if (name !== 'postgres') return [];
        // The same connection: PostgreSQL holds the statements it was asked to prepare by name.
        const held = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(trx);
        return held.rows.map((row) => row.statement);
      });
      if (name === 'postgres') expect(prepares.some((text) => text.includes('update "rate_limit_hits"'))).toBe(true);

      await expect(hitsOf.takeFirst(db, {} as { bucket: string })).rejects.toThrow('no value for bucket');
    } finally {
      await cleanup();
    }
  });

  it("runs a compiled query's LIMIT and OFFSET with each run's values; on SQLite as expressions, which its planner does not read", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const window_ends_at = new Date().toISOString();
      for (const bucket of ['a', 'b', 'c', 'd']) await insertHits.affected(db, { bucket, window_ends_at, hits: 1 });
      const page = prepared((pageDb, p: { limit: number; offset: number }) =>
        pageDb.selectFrom('rate_limit_hits').select('bucket').orderBy('bucket').limit(p.limit).offset(p.offset),
      );
      const buckets = async (limit: number, offset: number) =>
        (await page.execute(db, { limit, offset })).rows.map((row) => row.bucket);
      expect(await buckets(2, 0)).toEqual(['a', 'b']);
      expect(await buckets(3, 1)).toEqual(['b', 'c', 'd']);
      expect(await buckets(1, 3)).toEqual(['d']);
      // A bare `limit ?` would make SQLite parse and plan the statement again whenever a run binds its values
      // (db/sqlite-dialect.ts).
      const { sql: text } = db.selectFrom('rate_limit_hits').select('bucket').limit(2).offset(1).compile();
      if (name === 'sqlite') expect(text).toMatch(/limit cast\(\? as integer\) offset cast\(\? as integer\)$/);
    } finally {
      await cleanup();
    }
  });

  it("gives each compiled query's rows its own columns' types at every run, the columns' names alike", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const window_ends_at = new Date().toISOString();
      await insertHits.affected(db, { bucket: 'first', window_ends_at, hits: 1 });
      await insertHits.affected(db, { bucket: 'second', window_ends_at, hits: 2 });
      // PostgreSQL describes each run's columns again; what pg builds from a statement's description is kept
      // (postgres-query.ts): each run's rows must still be its own statement's, whatever ran before on the connection.
      const count = name === 'postgres' ? '1' : 1;
      for (let run = 0; run < 3; run += 1) {
        const bucket = run % 2 === 0 ? 'first' : 'second';
        const hits = run % 2 === 0 ? 1 : 2;
        expect(await hitsOf.takeFirst(db, { bucket })).toEqual({ bucket, hits });
        expect(await hitsAsText.takeFirst(db, { bucket })).toEqual({ bucket, hits: String(hits), rows: count });
        expect(await hitsOf.takeFirst(db, { bucket: 'none' })).toBeUndefined();
      }
    } finally {
      await cleanup();
    }
  });

  // PostgreSQL only: SQLite keeps nothing of a statement's columns (postgres-query.ts).
  it.runIf(name === 'postgres')(
    "gives a compiled query's rows their columns' types as they are now, after another instance's migration changed one",
    async () => {
      const { config, handle, cleanup } = await engine.open();
      const window_ends_at = new Date().toISOString();
      let later: Awaited<ReturnType<typeof engine.open>>['handle'] | undefined;
      try {
        await insertHits.affected(handle.db, { bucket: 'first', window_ends_at, hits: 1 });
        expect(await allHitsOf.takeFirst(handle.db, { bucket: 'first' })).toEqual({ bucket: 'first', window_ends_at, hits: 1 });
        // A rolling upgrade: another instance widens a column to bigint (which pg answers as text); this one's next
        // connection describes the same statement with the new type, so the parsers built for the old one must go.
        await sql`alter table rate_limit_hits alter column hits type bigint`.execute(handle.db);
        later = await openDatabase(config);
        expect(await allHitsOf.takeFirst(later.db, { bucket: 'first' })).toEqual({ bucket: 'first', window_ends_at, hits: '1' });
      } finally {
        await later?.close();
        await cleanup();
      }
    },
  );

  it("keeps a transaction's first statement in it: unseen by another connection while the transaction runs, undone by a rollback", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const window_ends_at = new Date().toISOString();
      const rolledBack = db.transaction().execute(async (trx) => {
        expect(await insertHits.affected(trx, { bucket: 'undone', window_ends_at, hits: 1 })).toBe(1);
        // Another connection's read (PostgreSQL: the pool's; SQLite has one connection, held by the transaction).
        if (name === 'postgres') expect(await hitsOf.takeFirst(db, { bucket: 'undone' })).toBeUndefined();
        throw new Error('rolled back');
      });
      await expect(rolledBack).rejects.toThrow('rolled back');
      expect(await hitsOf.takeFirst(db, { bucket: 'undone' })).toBeUndefined();
    } finally {
      await cleanup();
    }
  });

  const opened: Array<[string, (db: Db, body: (trx: Db) => Promise<void>) => Promise<void>]> = [
    ["Kysely's transaction", (db, body) => db.transaction().execute(body)],
    ['transaction()', transaction],
  ];
  it.each(opened)(
    'keeps a statement made outside a transaction (%s) out of it: not run inside it (SQLite: after it), kept when it is rolled back',
    async (_, open) => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      try {
        const window_ends_at = new Date().toISOString();
        let outside: Promise<void> | undefined;
        let outsideDone = false;
        const rolledBack = open(db, async (trx) => {
          expect(await insertHits.affected(trx, { bucket: 'inside', window_ends_at, hits: 1 })).toBe(1);
          // Another request's statement, while this transaction holds the connection (SQLite: its only one).
          outside = insertHits.affected(db, { bucket: 'outside', window_ends_at, hits: 2 }).then(() => {
            outsideDone = true;
          });
          await new Promise((resolve) => setTimeout(resolve, 20));
          if (name === 'sqlite') expect(outsideDone).toBe(false);
          throw new Error('rolled back');
        });
        await expect(rolledBack).rejects.toThrow('rolled back');
        await outside;
        expect(await hitsOf.takeFirst(db, { bucket: 'inside' })).toBeUndefined();
        expect(await hitsOf.takeFirst(db, { bucket: 'outside' })).toEqual({ bucket: 'outside', hits: 2 });
      } finally {
        await cleanup();
      }
    },
  );

  it("commits transaction()'s statements together, compiled ones and Kysely's, and hides them from another connection until then", async () => {
    const { config, handle, cleanup } = await engine.open();
    const { db } = handle;
    // Another instance's connection (SQLite's own one is held by the transaction).
    const other = await openDatabase(config);
    try {
      const window_ends_at = new Date().toISOString();
      let seenInside: unknown;
      await transaction(db, async (trx) => {
        await insertHits.affected(trx, { bucket: 'compiled', window_ends_at, hits: 1 });
        await trx.insertInto('rate_limit_hits').values({ bucket: 'built', window_ends_at, hits: 2 }).execute();
        seenInside = await hitsOf.takeFirst(trx, { bucket: 'built' });
        expect(await hitsOf.takeFirst(other.db, { bucket: 'compiled' })).toBeUndefined();
      });
      expect(seenInside).toEqual({ bucket: 'built', hits: 2 });
      expect(await hitsOf.takeFirst(other.db, { bucket: 'compiled' })).toEqual({ bucket: 'compiled', hits: 1 });
      expect(await hitsOf.takeFirst(other.db, { bucket: 'built' })).toEqual({ bucket: 'built', hits: 2 });
    } finally {
      await other.close();
      await cleanup();
    }
  });
  // SQLite only: elsewhere transaction() is Kysely's own.
  it.runIf(name === 'sqlite')(
    "refuses a compiled query through transaction()'s connection kept past its COMMIT or ROLLBACK, where it would run inside another request's transaction",
    async () => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      try {
        const window_ends_at = new Date().toISOString();
        let kept: Db | undefined;
        await transaction(db, async (trx) => {
          kept = trx;
          await insertHits.affected(trx, { bucket: 'committed', window_ends_at, hits: 1 });
        });
        await expect(
          transaction(db, async (trx) => {
            kept = trx;
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        if (kept === undefined) throw new Error('the transaction did not run');
        const stale = kept;
        // Another request's transaction holds the connection: the stale reference must not write into it.
        await expect(
          transaction(db, async () => {
            await expect(insertHits.affected(stale, { bucket: 'stale', window_ends_at, hits: 2 })).rejects.toThrow(
              'after the transaction ended',
            );
            throw new Error('rolled back');
          }),
        ).rejects.toThrow('rolled back');
        expect(await hitsOf.takeFirst(db, { bucket: 'committed' })).toEqual({ bucket: 'committed', hits: 1 });
        expect(await hitsOf.takeFirst(db, { bucket: 'stale' })).toBeUndefined();
      } finally {
        await cleanup();
      }
    },
  );
});

describe("SQLite's compiled writes of one turn of the event loop (sqlite-at-once.ts)", () => {
  const engine = sqliteEngine();
  const at = new Date().toISOString();
  /** The log's frames: its `log` column (PASSIVE: counted, then copied into the database; TRUNCATE: the log emptied). */
  const checkpoint = async (db: Db, mode: 'TRUNCATE' | 'PASSIVE'): Promise<number> =>
    Number(Object.values((await sql.raw(`pragma wal_checkpoint(${mode})`).execute(db)).rows[0] ?? {})[1]);
  /** The frames `write` adds to an emptied log. */
  const framesOf = async (db: Db, write: () => Promise<unknown>): Promise<number> => {
    await checkpoint(db, 'TRUNCATE');
    await write();
    return checkpoint(db, 'PASSIVE');
  };

  it('shares one commit: the pages they all change are written to the log once', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const oneByOne = await framesOf(db, async () => {
        for (const bucket of ['one', 'two', 'three', 'four'])
          await insertHits.affected(db, { bucket, window_ends_at: at, hits: 1 });
      });
      const together = await framesOf(db, () =>
        Promise.all(
          ['five', 'six', 'seven', 'eight'].map((bucket) => insertHits.affected(db, { bucket, window_ends_at: at, hits: 1 })),
        ),
      );
      // Each commit wrote the pages it changed (the table's and its two indexes'): 4 commits, then one.
      expect(together).toBeGreaterThan(0);
      expect(oneByOne).toBe(4 * together);
      expect(await hitsOf.takeFirst(db, { bucket: 'eight' })).toEqual({ bucket: 'eight', hits: 1 });
    } finally {
      await cleanup();
    }
  });

  it('shares it with writes that return rows: two inserts with RETURNING write the log frames of two without (the rate limit counts with RETURNING)', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const plain = await framesOf(db, () =>
        Promise.all(['a', 'b'].map((bucket) => insertHits.affected(db, { bucket, window_ends_at: at, hits: 1 }))),
      );
      const returning = await framesOf(db, () =>
        Promise.all(['c', 'd'].map((bucket) => insertHitsReturning.takeFirst(db, { bucket, window_ends_at: at, hits: 1 }))),
      );
      // better-sqlite3 calls such a write a reader; run alone as a read is, each was a commit of its own.
      expect(returning).toBe(plain);
      expect(await hitsOf.takeFirst(db, { bucket: 'd' })).toEqual({ bucket: 'd', hits: 1 });
    } finally {
      await cleanup();
    }
  });

  it('answers each write, one that returns rows too, only once it is committed: another connection sees it then, not before', async () => {
    const { config, handle, cleanup } = await engine.open();
    const other = await openDatabase(config);
    try {
      const written = insertHits.affected(handle.db, { bucket: 'later', window_ends_at: at, hits: 1 });
      const seenWhenAnswered = written.then(() => hitsOf.takeFirst(other.db, { bucket: 'later' }));
      const returned = insertHitsReturning.takeFirst(handle.db, { bucket: 'returned', window_ends_at: at, hits: 1 });
      const seenWhenReturned = returned.then(() => hitsOf.takeFirst(other.db, { bucket: 'returned' }));
      // Run at once on the other connection (a read alone), while the writes' turn is not over.
      expect(await hitsOf.takeFirst(other.db, { bucket: 'later' })).toBeUndefined();
      expect(await seenWhenAnswered).toEqual({ bucket: 'later', hits: 1 });
      expect(await seenWhenReturned).toEqual({ bucket: 'returned', hits: 1 });
    } finally {
      await other.close();
      await cleanup();
    }
  });

  it("runs a transaction of transaction() inside the turn's: one commit for both, the transaction's answer at it", async () => {
    const { config, handle, cleanup } = await engine.open();
    const other = await openDatabase(config);
    const { db } = handle;
    try {
      let turnAnswered = false;
      const frames = await framesOf(db, async () => {
        const turn = insertHits.affected(db, { bucket: 'the turn', window_ends_at: at, hits: 1 }).then((n) => {
          turnAnswered = true;
          return n;
        });
        const done = await transaction(db, async (trx) => {
          await insertHits.affected(trx, { bucket: 'the transaction', window_ends_at: at, hits: 1 });
          return 'done';
        });
        // Answered once the turn's commit is done, the turn's write with it.
        expect([done, turnAnswered]).toEqual(['done', true]);
        expect(await turn).toBe(1);
      });
      expect(await hitsOf.takeFirst(other.db, { bucket: 'the transaction' })).toEqual({ bucket: 'the transaction', hits: 1 });
      // Two inserts into the table and its two indexes in one commit: each of the three pages written once.
      expect(frames).toBe(3);
    } finally {
      await other.close();
      await cleanup();
    }
  });

  it("fails a statement alone: the turn's other writes are committed", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      await insertHits.affected(db, { bucket: 'taken', window_ends_at: at, hits: 1 });
      const [duplicate, other] = await Promise.allSettled([
        insertHits.affected(db, { bucket: 'taken', window_ends_at: at, hits: 2 }),
        insertHits.affected(db, { bucket: 'free', window_ends_at: at, hits: 3 }),
      ]);
      expect(duplicate.status).toBe('rejected');
      expect(other).toEqual({ status: 'fulfilled', value: 1 });
      expect(await hitsOf.takeFirst(db, { bucket: 'taken' })).toEqual({ bucket: 'taken', hits: 1 });
      expect(await hitsOf.takeFirst(db, { bucket: 'free' })).toEqual({ bucket: 'free', hits: 3 });
    } finally {
      await cleanup();
    }
  });

  it("commits the turn's writes before a query through Kysely or the close, and with a transaction of transaction()", async () => {
    const { config, handle, cleanup } = await engine.open();
    const other = await openDatabase(config);
    try {
      const { db } = handle;
      void insertHits.affected(db, { bucket: 'before kysely', window_ends_at: at, hits: 1 });
      const built = await db.selectFrom('rate_limit_hits').select('bucket').where('bucket', '=', 'before kysely').execute();
      expect(built).toEqual([{ bucket: 'before kysely' }]);
      // Committed by then, not at the turn's end: Kysely's query runs in the same turn, and another connection sees it.
      expect(await hitsOf.takeFirst(other.db, { bucket: 'before kysely' })).toEqual({ bucket: 'before kysely', hits: 1 });
      const before = insertHits.affected(db, { bucket: 'before transaction', window_ends_at: at, hits: 1 });
      await expect(
        transaction(db, async (trx) => {
          await insertHits.affected(trx, { bucket: 'in the transaction', window_ends_at: at, hits: 1 });
          // The turn's write is not committed before the transaction: the transaction runs inside the turn's.
          expect(await hitsOf.takeFirst(other.db, { bucket: 'before transaction' })).toBeUndefined();
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      // Its rollback undid its own statements only: the turn's write is committed at the turn's end.
      expect(await before).toBe(1);
      expect(await hitsOf.takeFirst(other.db, { bucket: 'in the transaction' })).toBeUndefined();
      expect(await hitsOf.takeFirst(other.db, { bucket: 'before transaction' })).toEqual({
        bucket: 'before transaction',
        hits: 1,
      });
      void insertHits.affected(db, { bucket: 'before close', window_ends_at: at, hits: 1 });
      await handle.close();
      expect(await hitsOf.takeFirst(other.db, { bucket: 'before close' })).toEqual({ bucket: 'before close', hits: 1 });
    } finally {
      await other.close();
      await cleanup().catch(() => undefined);
    }
  });
});

describe('SQLite with its checkpoints in a worker thread (as the server opens it)', () => {
  it("copies the write-ahead log into the database off the event loop, the main connection's own checkpoint only a bound", async () => {
    const temp = tempSqliteFile();
    const handle = await openDatabase({ engine: 'sqlite', file: temp.file }, { checkpointInWorker: true });
    try {
      const { db } = handle;
      const pragma = async (text: string) => Object.values((await sql.raw(`pragma ${text}`).execute(db)).rows[0] ?? {})[0];
      expect(await pragma('wal_autocheckpoint')).toBe(WAL_FRAMES_BOUND);
      await sql`create table filler (v text)`.execute(db);
      // About 1,000 frames, a tenth of the bound: the main connection copies none of them into the database.
      for (let i = 0; i < 500; i += 1) await sql`insert into filler (v) values (${'x'.repeat(3000)})`.execute(db);
      const size = Number(await pragma('page_count')) * Number(await pragma('page_size'));
      const deadline = Date.now() + 10_000;
      while (statSync(temp.file).size < size && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(statSync(temp.file).size).toBe(size);
    } finally {
      await handle.close();
      temp.cleanup();
    }
  });
});

describe('SQLite as the server opens it', () => {
  it("keeps a statement's temporary b-trees in memory (temp_store), where several distinct counts in one statement cost no more than apart", async () => {
    const { handle, cleanup } = await sqliteEngine().open();
    try {
      const { rows } = await sql.raw('pragma temp_store').execute(handle.db);
      // 2: MEMORY (0 is the build's default, a file).
      expect(Object.values(rows[0] ?? {})[0]).toBe(2);
    } finally {
      await cleanup();
    }
  });
});

describe('SQLite opened by two at once (two server processes starting on a new file)', () => {
  it('migrates the new file once: the second opener waits for the first, then finds it current', async () => {
    const temp = tempSqliteFile();
    const opened = await Promise.allSettled([1, 2].map(() => openDatabase({ engine: 'sqlite', file: temp.file })));
    try {
      expect(opened.map((result) => (result.status === 'rejected' ? String(result.reason) : 'opened'))).toEqual([
        'opened',
        'opened',
      ]);
      const [first] = opened;
      if (first?.status !== 'fulfilled') return;
      const executed = await sql<{ name: string }>`select name from kysely_migration`.execute(first.value.db);
      expect(executed.rows.map((row) => row.name).sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      for (const result of opened) if (result.status === 'fulfilled') await result.value.close();
      temp.cleanup();
    }
  });
});

describe("PostgreSQL's pipeline: compiled reads and relaxed writes outside a transaction (postgres-pipeline.ts)", () => {
  const engine = postgresEngine();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  async function backends(db: Db, divisor = 1): Promise<number[]> {
    const rows = await Promise.all(Array.from({ length: 32 }, () => backendOfRead.takeFirst(db, { divisor })));
    return [...new Set(rows.map((row) => row?.pid ?? 0))];
  }

  it("share two connections, written behind each other; flushed writes, transactions, a locking read and a writing WITH keep the pool's", async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const window_ends_at = new Date().toISOString();
      // 32 reads at once: through the pool of 10 they took as many connections as it has; here they are shared out
      // over the pipeline's two, each read sent on the one with fewer in flight.
      const pipeline = await backends(db);
      expect(pipeline).toHaveLength(2);
      const relaxed = await backendOfRelaxedWrite.takeFirst(db, { bucket: 'relaxed', window_ends_at, hits: 1 });
      expect(pipeline).toContain(relaxed?.pid);
      const flushed = await backendOfFlushedWrite.takeFirst(db, { bucket: 'flushed', window_ends_at, hits: 1 });
      expect(pipeline).not.toContain(flushed?.pid);
      const inTransaction = await db.transaction().execute((trx) => backendOfRead.takeFirst(trx, { divisor: 1 }));
      expect(pipeline).not.toContain(inTransaction?.pid);
      // A select that may wait for a row lock would hold up the statements written behind it.
      const locking = await backendOfLockingRead.takeFirst(db, { bucket: 'flushed' });
      expect(locking?.pid).toBeDefined();
      expect(pipeline).not.toContain(locking?.pid);
      const writingWith = await backendOfWritingWith.takeFirst(db, { bucket: 'with', window_ends_at, hits: 1 });
      expect(writingWith?.pid).toBeDefined();
      expect(pipeline).not.toContain(writingWith?.pid);
    } finally {
      await cleanup();
    }
  });

  it('sends the statements one tick writes to a connection together: 32 reads at once in one send a connection', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    const sends = [vi.spyOn(Socket.prototype, '_write'), vi.spyOn(Socket.prototype, '_writev')];
    try {
      await backends(db); // the connections opened and the statement prepared on each
      for (const send of sends) send.mockClear();
      const pipeline = await backends(db);
      expect(pipeline).toHaveLength(2);
      expect(sends.reduce((sum, send) => sum + send.mock.calls.length, 0)).toBe(2);
    } finally {
      for (const send of sends) send.mockRestore();
      await cleanup();
    }
  });

  it('fails a statement alone: those written behind it on its connection are answered', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const failing = backendOfRead.takeFirst(db, { divisor: 0 });
      const behind = Promise.all(Array.from({ length: 8 }, () => backendOfRead.takeFirst(db, { divisor: 1 })));
      await expect(failing).rejects.toThrow('division by zero');
      expect((await behind).map((row) => row?.quotient)).toEqual(Array.from({ length: 8 }, () => 1));
    } finally {
      await cleanup();
    }
  });

  it('opens new connections once its own are dropped (a restart of the server, a terminated backend)', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const before = await backends(db);
      await sql`select pg_terminate_backend(pid) from unnest(${before}::int[]) as pid`.execute(db);
      // The statements written before the connections' end is noticed may fail with them, as on a pooled connection.
      let after: number[] = [];
      for (let attempt = 0; attempt < 20 && after.length === 0; attempt += 1) {
        after = await backends(db).catch(() => []);
        if (after.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(after.length).toBeGreaterThan(0);
      expect(after.filter((pid) => before.includes(pid))).toEqual([]);
    } finally {
      await cleanup();
    }
  });
});

describe("PostgreSQL's pool of connections (connect.ts openPostgres)", () => {
  const engine = postgresEngine();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it('closes a connection left idle longer than postgresIdleTimeoutMs (pg closes it after 10 s by default)', async () => {
    const { config, handle, cleanup } = await engine.open();
    const other = await openDatabase(config, { postgresIdleTimeoutMs: 100 });
    try {
      // A transaction runs on a pooled connection (the pipeline's are not pooled); `handle` looks for its backend.
      const pooled = await other.db.transaction().execute((trx) => backendOfRead.takeFirst(trx, { divisor: 1 }));
      const open = async () =>
        (await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity where pid = ${pooled?.pid}`.execute(handle.db))
          .rows[0]?.n;
      expect(await open()).toBe(1);
      const deadline = Date.now() + 3_000;
      while ((await open()) !== 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(await open()).toBe(0);
    } finally {
      await other.close();
      await cleanup();
    }
  });
});

describe("PostgreSQL's plans of the payment path, kept per connection (prepared.ts)", () => {
  const engine = postgresEngine();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it("reads an order's attempts and answers an attempt by index, with plans made while the tables were empty", async () => {
    const { config, handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const owner = { accountId: null, sessionId: 'ses_x' };
      const decline = { kind: 'declined', reason: 'processor_declined' } as const;
      const pay = async () => {
        const order = await insertOrder(db, { owner, items: [MUG], total: MUG.total });
        if ((await findOwnedOrderWithLines(db, order.id, owner)) === undefined) throw new Error('order not found');
        const attempt = await pendingAttempt(db, order.id);
        await recordOutcome(db, attempt, decline);
      };
      // More runs than PostgreSQL's five custom plans: each statement's connection keeps a generic plan from here.
      for (let run = 0; run < 8; run += 1) await pay();
      await sql`insert into orders (id, status, total_amount, currency, owner_session_id, created_at, updated_at, number)
        select 'ord_many_' || i, 'pending', 100, 'EUR', 'ses_y', '2026-01-01', '2026-01-01', 100000 + i
        from generate_series(1, 3000) as i`.execute(db);
      await sql`insert into payments (id, order_id, status, amount, currency, nonce, created_at, updated_at)
        select 'pay_many_' || i, 'ord_many_' || i, 'declined', 100, 'EUR', 'n', '2026-01-01', '2026-01-01'
        from generate_series(1, 3000) as i`.execute(db);
      await pay();
      await handle.close();
      const rows = await statisticsOf<{ name: string; scans: string }>(
        config,
        `select 'payments' as name, seq_scan as scans from pg_stat_user_tables where relname = 'payments'
         union all select indexrelname, idx_scan from pg_stat_user_indexes where relname = 'payments'`,
      );
      const scans = Object.fromEntries(rows.map((row) => [row.name, Number(row.scans)]));
      // The order's read probed its attempts by the order's index at every run, never reading every payment (a hashed
      // subplan); each answer found its attempt by the primary key, not among payments_status_created's pending entries.
      expect(scans).toMatchObject({ payments: 0, payments_status_created: 0 });
      expect(scans.payments_order).toBeGreaterThanOrEqual(9);
      expect(scans.payments_pkey).toBeGreaterThanOrEqual(9);
    } finally {
      await cleanup();
    }
  });

  it("writes an Idempotency-Key's answer beside its claim, a HOT update (no index entry), though claims came first", async () => {
    const { config, handle, cleanup } = await engine.open();
    try {
      const keys = new IdempotencyRepository(handle.db);
      // As a payment's key is held: a session's id, a UUID, the request's SHA-256; claimed by requests in flight together,
      // which fill their page before any answers; then the answers, of a payment's size (about 1.1 KB).
      const scope = `ses_${'s'.repeat(22)}`;
      const held = Array.from({ length: 40 }, () => randomUUID());
      for (const key of held) await keys.claim(scope, key, 'h'.repeat(64));
      const answer = JSON.stringify({ order: 'x'.repeat(1100) });
      for (const key of held) await keys.complete(scope, key, 201, answer);
      await handle.close();
      const [updates] = await statisticsOf<{ all: string; hot: string }>(
        config,
        `select n_tup_upd as all, n_tup_hot_upd as hot from pg_stat_user_tables where relname = 'idempotency_keys'`,
      );
      expect(Number(updates?.all)).toBe(held.length);
      expect(Number(updates?.hot)).toBe(held.length);
    } finally {
      await cleanup();
    }
  });
});

/**
 * The statistics PostgreSQL keeps of a database's tables and indexes, read once its other connections have ended (the
 * server's, closed by the caller): a backend's counts reach the others' view when it has been idle a while (up to 10 s)
 * or when it ends.
 */
async function statisticsOf<Row extends Record<string, unknown>>(config: DatabaseConfig, query: string): Promise<Row[]> {
  const client = new pg.Client({ connectionString: config.engine === 'postgres' ? config.url : '' });
  await client.connect();
  try {
    const others =
      'select count(*)::int as n from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()';
    while ((await client.query<{ n: number }>(others)).rows[0]?.n !== 0) await new Promise((resolve) => setTimeout(resolve, 20));
    return (await client.query<Row>(query)).rows;
  } finally {
    await client.end();
  }
}
