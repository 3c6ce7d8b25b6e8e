import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DatabaseConfig } from '../../packages/server/src/config.ts';
import { openDatabase } from '../../packages/server/src/db/connect.ts';
import { lastOrderNumber, takeOrderNumbersUpTo } from '../../packages/server/src/orders/orders.repository.ts';

// `--seed-payments N`: the growth rows run against a database that already holds N paid orders, each with its line
// and its charged payment, spread over the last 90 days as a shop's would be. The rows are made by the database
// itself (a recursive count, one INSERT ... SELECT per table and batch), so a million take minutes, not a million
// round trips. Only the tables that grow with the shop's age are seeded, the gateway's settlement notices included (one
// per payment): sessions, Idempotency-Keys, bot-check spends, velocity counts and rate-limit windows are swept after a
// day or two (the server's sweeper).

/** Rows per INSERT ... SELECT: one statement (and on SQLite one transaction) each. */
const BATCH = 100_000;
const DAYS = 90;

/** Seeds `count` paid orders into the database at `databaseUrl` (migrated first, as the server would). */
export async function seedPayments(databaseUrl: string, count: number): Promise<void> {
  const config: DatabaseConfig = /^postgres(ql)?:/.test(databaseUrl)
    ? { engine: 'postgres', url: databaseUrl }
    : { engine: 'sqlite', file: databaseUrl };
  const handle = await openDatabase(config);
  const { db, engine } = handle;
  try {
    const lastNumber = await lastOrderNumber(db);
    const seconds = DAYS * 24 * 60 * 60;
    // The n-th row's time: n spread evenly over the window, oldest first, as an ISO 8601 string like nowIso's.
    const isoAgo = (n: RawBuilder<unknown>): RawBuilder<string> =>
      engine === 'sqlite'
        ? sql`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || (${sql.lit(seconds)} - (${n} * ${sql.lit(seconds)} / ${sql.lit(count)})) || ' seconds')`
        : sql`to_char((now() at time zone 'utc') - make_interval(secs => ${sql.lit(seconds)} - (${n}::bigint * ${sql.lit(seconds)} / ${sql.lit(count)})), 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
    const n = sql.ref('n');
    // An id shaped as the server's (newId) or the gateway's, spread over their key space as random ids are: its first
    // four characters the row's number hashed (Fibonacci hashing: the product's high bits, evenly spread) in the id's
    // alphabet, then the number (unique). Ids sharing a prefix ('ord_seed1', 'ord_seed2', ...) would sit in one corner
    // of each index, where a new random id almost never goes: the payments made during the run would then insert into
    // indexes of a few thousand rows, not of N.
    const spread = (prefix: string, alphabet: string, number: RawBuilder<unknown>): RawBuilder<string> => {
      const hash = sql`((${number} * 2654435761) % 4294967296)`;
      const chars = [1, 2, 3, 4].map(
        (digits) =>
          sql`substr(${sql.lit(alphabet)}, cast(1 + ${hash} * ${sql.lit(alphabet.length ** digits)} / 4294967296 % ${sql.lit(alphabet.length)} as integer), 1)`,
      );
      return sql<string>`${sql.lit(prefix)} || ${sql.join(chars, sql` || `)} || ${number}`;
    };
    const ID = '0123456789abcdefghijklmnopqrstuv';
    const orderId = spread('ord_', ID, n);
    const sessionId = spread('ses_', ID, sql`(${n} / 25)`);
    const transactionId = spread('', 'abcdefghijklmnopqrstuvwxyz0123456789', n);
    for (let from = 1; from <= count; from += BATCH) {
      const to = Math.min(count, from + BATCH - 1);
      // The batch's numbers from..to, counted by the database (WITH RECURSIVE works on both engines).
      const numbers = sql`with recursive seq(n) as (select ${sql.lit(from)} union all select n + 1 from seq where n < ${sql.lit(to)})`;
      const at = isoAgo(n);
      await db.transaction().execute(async (trx) => {
        await sql`${numbers}
          insert into orders (id, number, status, total_amount, currency, owner_account_id, owner_session_id, created_at, updated_at)
          select ${orderId}, ${sql.lit(lastNumber)} + n, 'paid', 1200, 'EUR', null, ${sessionId}, ${at}, ${at}
          from seq`.execute(trx);
        await sql`${numbers}
          insert into order_items (order_id, position, product_id, name, quantity, unit_amount, currency)
          select ${orderId}, 0, 'prd_mug', 'Mug', 1, 1200, 'EUR' from seq`.execute(trx);
        await sql`${numbers}
          insert into payments (id, order_id, status, amount, currency, idempotency_ref, nonce, transaction_id, card_brand,
            card_last_four, payment_method_type, three_d_secure_required, settlement_status, settlement_status_at, created_at,
            updated_at)
          select ${spread('pay_', ID, n)}, ${orderId}, 'succeeded', 1200, 'EUR', ${sessionId} || ':seed-' || n,
            'seed-nonce-' || n, ${transactionId}, 'Visa', cast(1000 + n % 9000 as text), 'credit_card', 0, 'settled', ${at},
            ${at}, ${at}
          from seq`.execute(trx);
        // The gateway's notice of each settlement, kept as the server keeps them (webhooks/notifications.ts); a charge's
        // statement reads them by its transaction id (toldSettlement).
        await sql`${numbers}
          insert into webhook_notifications (id, kind, subject_id, notified_at, received_at)
          select ${spread('whn_', '0123456789abcdef', n)}, 'transaction_settled', ${transactionId}, ${at}, ${at}
          from seq`.execute(trx);
      });
    }
    await takeOrderNumbersUpTo(db, lastNumber + count);
    // What the server does hourly (SQLite) or autovacuum does (PostgreSQL): statistics of the tables as they now are.
    await sql`analyze`.execute(db);
  } finally {
    await handle.close();
  }
}
