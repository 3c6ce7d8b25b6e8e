import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import type { DatabaseHandle } from '../db/connect.ts';
import { nowIso } from '../ids.ts';
import { SITEVERIFY_PROVIDERS } from '../botcheck/providers.ts';
import type { Config } from '../config.ts';
import { runEvery } from './every.ts';
import { MAX_ATTEMPTS } from '../mail/outbox.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../payments/idempotency.repository.ts';
import { VELOCITY_COUNTS_KEEP_MS } from '../velocity/velocity.ts';

// The sweeper deletes what no request will read again, in a job apart from requests (a request pays for its own work
// only). How long each kind of row is kept:
// - sessions: until they expire (SESSION_TTL_MS, 30 days after sign-in or first visit); an expired one is refused anyway;
// - Idempotency-Keys: IDEMPOTENCY_RETENTION_MS (48 hours; Stripe keeps them 24) after the request, answered or not, as
//   long as no request holds the key (an unanswered key is released or its holder dead long before);
// - spent bot-check tokens: until the token expires (BOTCHECK_CHALLENGE_TTL_SECONDS): an expired token is refused
//   before the replay check, so its fingerprint guards nothing;
// - velocity counts: VELOCITY_COUNTS_KEEP_MS (a day, the longest window of any rule);
// - rate limit counters: until their window ends;
// - mails: SENT_MAIL_RETENTION_MS (7 days) after they were sent (a sign-up link in one lives 24 hours; the week is for
//   the dev outbox and for a merchant asked "did you mail me?"); a mail given up on (MAX_ATTEMPTS failed deliveries)
//   GIVEN_UP_MAIL_RETENTION_MS (30 days) after it was written, with its last error; unsent ones are never swept;
// - velocity and bot-check refusals: REFUSALS_RETENTION_MS (90 days, the dashboard's longest period), for the
//   merchant's refusals page; older ones are of no rule's concern (the rules read velocity_counts);
// - pending sign-ups: until their link expires (SIGN_UP_LINK_HOURS, 24 hours): an expired link is refused anyway, and
//   the row holds a name, an email and a password hash nobody confirmed.
// Kept for good: the admin audit log (who refunded, voided or canceled what: the merchant's record of its people's
// actions on payments, kept as long as the payments are) and the gateway's webhook notifications (each payment's
// timeline shows them, and their ids are what makes a retried delivery a duplicate); both grow with the payments.
// Several instances may sweep at once: each batch is one statement; on PostgreSQL its rows are locked with SKIP LOCKED,
// so two sweepers take different rows instead of waiting on each other, and a row is deleted once.

/** Rows deleted per statement: short statements, so a sweep never holds locks (or SQLite's writer) for long. */
export const SWEEP_BATCH = 1000;

/** Sent mails are kept this long after sending. */
export const SENT_MAIL_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/** Mails given up on are kept this long after they were written. */
export const GIVEN_UP_MAIL_RETENTION_MS = 30 * 24 * 60 * 60 * 1000;
/** Refusals (velocity rules and bot-check) are kept this long for the merchant. */
export const REFUSALS_RETENTION_MS = 90 * 24 * 60 * 60 * 1000;

export interface Sweep {
  table:
    | 'sessions'
    | 'idempotency_keys'
    | 'botcheck_uses'
    | 'velocity_counts'
    | 'rate_limit_hits'
    | 'mail_outbox'
    | 'velocity_refusals'
    | 'sign_ups';
  /** The primary key's columns. */
  key: readonly string[];
  /** Which rows are done with, as of `now`. */
  done(now: Date): RawBuilder<unknown>;
  /**
   * SQLite's way where the table has no index of the column `done` reads (migrations 0022, 0023): its rows are read
   * by rowid, the order they were written in, up to the first one whose `column` is at or past `stop`.
   */
  byRowid?: { column: string; stop(now: Date, settings: SweepSettings): string };
}

/** What a sweep reads of the config. */
export interface SweepSettings {
  /** How long past its spend a spent bot-check token may expire: the longest life of any provider's tokens. */
  tokenLifeMs: number;
}

/**
 * ALTCHA's challenges live BOTCHECK_CHALLENGE_TTL_SECONDS from their issue, a third party's tokens their provider's
 * published life from their check; either may be spent at once, so a spent token's expiry is up to that far past its
 * spend. All providers count (the shop alert's provider is another one).
 */
export function sweepSettings(botcheck: Pick<Config['botcheck'], 'challengeTtlSeconds'>): SweepSettings {
  const lives = Object.values(SITEVERIFY_PROVIDERS).map((provider) => provider.tokenLifeSeconds);
  return { tokenLifeMs: Math.max(botcheck.challengeTtlSeconds, ...lives) * 1000 };
}

const ago = (now: Date, ms: number): string => nowIso(new Date(now.getTime() - ms));

/**
 * How far a row's rowid may be out of the order of the time `byRowid` reads. That time is its request's clock's (a
 * velocity count's minute, a key's creation) or set from it (a token's expiry), and its row is written in that request
 * (a count of an outcome's after the gateway answered) on whichever instance's clock: a row written later may hold an
 * earlier time, by seconds. SQLite's sweep reads rows by rowid up to the first one this long past the cutoff: every
 * expired row before it goes; one out of order by more waits for a later sweep (the stop row moves on with the clock).
 */
export const ROWID_SLACK_MS = 10 * 60 * 1000;

export const SWEEPS: readonly Sweep[] = [
  { table: 'sessions', key: ['id'], done: (now) => sql`expires_at < ${nowIso(now)}` },
  {
    table: 'idempotency_keys',
    key: ['scope', 'key'],
    done: (now) => {
      const cutoff = ago(now, IDEMPOTENCY_RETENTION_MS);
      return sql`created_at < ${cutoff} and (locked_at is null or locked_at < ${cutoff})`;
    },
    // A key's created_at is its insert's: a takeover or an answer updates the row in place, and a key claimed again
    // after it expired is deleted and inserted anew (idempotency.repository.ts).
    byRowid: { column: 'created_at', stop: (now) => ago(now, IDEMPOTENCY_RETENTION_MS - ROWID_SLACK_MS) },
  },
  {
    table: 'botcheck_uses',
    key: ['fingerprint'],
    done: (now) => sql`expires_at < ${nowIso(now)}`,
    // Its rowids follow the spends; a spent token's expiry is up to a token's life past its spend.
    byRowid: { column: 'expires_at', stop: (now, settings) => ago(now, -(settings.tokenLifeMs + ROWID_SLACK_MS)) },
  },
  {
    table: 'velocity_counts',
    key: ['action', 'dimension', 'subject', 'minute', 'detail'],
    done: (now) => sql`minute < ${ago(now, VELOCITY_COUNTS_KEEP_MS)}`,
    // The rowids follow the minute a count was first written in.
    byRowid: { column: 'minute', stop: (now) => ago(now, VELOCITY_COUNTS_KEEP_MS - ROWID_SLACK_MS) },
  },
  { table: 'rate_limit_hits', key: ['bucket', 'window_ends_at'], done: (now) => sql`window_ends_at < ${nowIso(now)}` },
  {
    table: 'mail_outbox',
    key: ['id'],
    // Both terms read the index on (sent_at, created_at).
    done: (now) =>
      sql`(sent_at < ${ago(now, SENT_MAIL_RETENTION_MS)}) or (sent_at is null and created_at < ${ago(now, GIVEN_UP_MAIL_RETENTION_MS)} and attempts >= ${MAX_ATTEMPTS})`,
  },
  // On SQLite it reads the refusals page's index, (created_at, id) (0023).
  { table: 'velocity_refusals', key: ['id'], done: (now) => sql`created_at < ${ago(now, REFUSALS_RETENTION_MS)}` },
  { table: 'sign_ups', key: ['id'], done: (now) => sql`expires_at < ${nowIso(now)}` },
];

export type SweepCounts = Record<Sweep['table'], number>;

/** One sweep of every table; returns how many rows each lost. */
export async function sweepExpired(
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  settings: SweepSettings,
  now: Date = new Date(),
): Promise<SweepCounts> {
  const counts = {} as SweepCounts;
  for (const sweep of SWEEPS) counts[sweep.table] = await sweepTable(database, sweep, settings, now);
  return counts;
}

async function sweepTable(
  database: Pick<DatabaseHandle, 'db' | 'engine'>,
  sweep: Sweep,
  settings: SweepSettings,
  now: Date,
): Promise<number> {
  const statement = sweepBatch(database.engine, sweep, settings, now);
  let total = 0;
  for (;;) {
    const deleted = Number((await statement.execute(database.db)).numAffectedRows ?? 0n);
    total += deleted;
    if (deleted < SWEEP_BATCH) return total;
  }
}

/** The statement deleting one batch of a table's rows done with as of `now`. */
export function sweepBatch(
  engine: DatabaseHandle['engine'],
  sweep: Sweep,
  settings: SweepSettings,
  now: Date,
): RawBuilder<unknown> {
  const table = sql.table(sweep.table);
  if (engine === 'postgres') {
    // By the batch's row addresses, not its keys: PostgreSQL planned `(key) in (select ...)` over a backlog as a hash
    // semi-join over a sequential scan of the whole table, a cost that grows with the table (issue 10, pg11: a batch
    // of a 100,000-row table's 20,000 expired rows took 20-110 ms, 0.8-3 ms so); `ctid = any(array(...))` is a TID
    // scan of the batch's rows alone. A row the select locked keeps its address until the statement's commit.
    return sql`
      delete from ${table} where ctid = any(array(
        select ctid from ${table} where ${sweep.done(now)} limit ${SWEEP_BATCH} for update skip locked
      ))`;
  }
  const byRowid = sweep.byRowid;
  const key = byRowid ? sql`rowid` : sql.join(sweep.key.map((column) => sql.ref(column)));
  // The stop row's subquery reads rows in rowid order from the first: the expired ones and the slack's.
  const done = byRowid
    ? sql`${sweep.done(now)} and rowid < coalesce((
        select rowid from ${table} where ${sql.ref(byRowid.column)} >= ${byRowid.stop(now, settings)} order by rowid limit 1
      ), 9223372036854775807)`
    : sweep.done(now);
  return sql`
    delete from ${table} where (${key}) in (
      select ${key} from ${table} where ${done} limit ${SWEEP_BATCH}
    )`;
}

export interface SweeperDeps {
  database: Pick<DatabaseHandle, 'db' | 'engine'>;
  settings: SweepSettings;
  log: FastifyBaseLogger;
}

/** Sweeps every `intervalMs`, one sweep at a time; returns the function that stops it. */
export function startSweeper(deps: SweeperDeps, intervalMs: number): () => void {
  return runEvery(intervalMs, async () => {
    try {
      deps.log.debug({ deleted: await sweepExpired(deps.database, deps.settings) }, 'swept expired rows');
    } catch (error) {
      deps.log.error({ err: error }, 'sweep failed');
    }
  });
}
