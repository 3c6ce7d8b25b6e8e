import { CompiledQuery, sql } from 'kysely';
import type { RawBuilder } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import type { DatabaseHandle, Db } from '../db/connect.ts';
import { nowIso } from '../ids.ts';
import { IDEMPOTENCY_RETENTION_MS } from '../payments/idempotency.repository.ts';
import { ENGINES } from '../testing/engines.ts';
import { VELOCITY_COUNTS_KEEP_MS } from '../velocity/velocity.ts';
import { MAX_ATTEMPTS } from '../mail/outbox.ts';
import { SIGN_UP_LINK_HOURS } from '../accounts/sign-up.ts';
import {
  GIVEN_UP_MAIL_RETENTION_MS,
  REFUSALS_RETENTION_MS,
  SENT_MAIL_RETENTION_MS,
  SWEEP_BATCH,
  ROWID_SLACK_MS,
  SWEEPS,
  sweepBatch,
  sweepExpired,
  sweepSettings,
} from './sweeper.ts';
import type { Sweep } from './sweeper.ts';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const at = (offsetMs: number): string => nowIso(new Date(NOW.getTime() + offsetMs));
const MINUTE = 60_000;
/** The default config's: BOTCHECK_CHALLENGE_TTL_SECONDS=120. */
const SETTINGS = sweepSettings({ challengeTtlSeconds: 120 });
const SIGN_UP_LINK_MS = SIGN_UP_LINK_HOURS * 60 * MINUTE;

/** A step of PostgreSQL's `explain (format json)` plan, as far as the tests read it. */
interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Parent Relationship'?: string;
  'Actual Rows': number;
  'Rows Removed by Filter'?: number;
  Plans?: PlanNode[];
}
const flatten = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(flatten)];

/** Each sweep's batch statement (at NOW) and the rows `explain` (the engine's own, with its options) gives for it. */
async function explainSweeps<Row>(handle: DatabaseHandle, explain: string): Promise<Array<[Sweep, Row[]]>> {
  const explained: Array<[Sweep, Row[]]> = [];
  for (const sweep of SWEEPS) {
    const compiled = sweepBatch(handle.engine, sweep, SETTINGS, NOW).compile(handle.db);
    const { rows } = await handle.db.executeQuery<Row>(CompiledQuery.raw(`${explain} ${compiled.sql}`, [...compiled.parameters]));
    explained.push([sweep, rows]);
  }
  return explained;
}

/** `count` spent bot-check tokens, every one expired a minute before NOW. */
async function spendExpiredTokens(db: Db, count: number): Promise<void> {
  const rows = Array.from({ length: count }, (_, n) => ({ fingerprint: `expired-${n}`, expires_at: at(-MINUTE) }));
  for (let n = 0; n < rows.length; n += 500)
    await db
      .insertInto('botcheck_uses')
      .values(rows.slice(n, n + 500))
      .execute();
}

/** Rows on both sides of each table's line: what is done with, and what a request could still read. */
async function seed(db: Db): Promise<void> {
  await db
    .insertInto('sessions')
    .values([
      { id: 'ses_expired', token_hash: 'h1', account_id: null, created_at: at(-60 * MINUTE), expires_at: at(-MINUTE) },
      { id: 'ses_live', token_hash: 'h2', account_id: null, created_at: at(-60 * MINUTE), expires_at: at(MINUTE) },
    ])
    .execute();
  const key = (name: string, createdAt: string, lockedAt: string | null, answered: boolean) => ({
    scope: 'ses_x',
    key: name,
    request_hash: 'r',
    locked_at: lockedAt,
    response_status: answered ? 201 : null,
    response_body: answered ? '{}' : null,
    created_at: createdAt,
  });
  const old = at(-IDEMPOTENCY_RETENTION_MS - MINUTE);
  await db
    .insertInto('idempotency_keys')
    .values([
      key('answered-old', old, null, true),
      key('released-old', old, null, false),
      key('answered-recent', at(-MINUTE), null, true),
      // Held right now by a request that is still running (a retry took over an old key): kept.
      key('held-old', old, at(-MINUTE), false),
    ])
    .execute();
  await db
    .insertInto('botcheck_uses')
    .values([
      { fingerprint: 'expired', expires_at: at(-MINUTE) },
      { fingerprint: 'live', expires_at: at(MINUTE) },
    ])
    .execute();
  const count = (minute: string) => ({ action: 'payment', dimension: 'ip', subject: '192.0.2.1', detail: '', minute, count: 2 });
  await db
    .insertInto('velocity_counts')
    .values([count(at(-VELOCITY_COUNTS_KEEP_MS - MINUTE)), count(at(-60 * MINUTE))])
    .execute();
  await db
    .insertInto('rate_limit_hits')
    .values([
      { bucket: 'POST /api/session 192.0.2.1', window_ends_at: at(-MINUTE), hits: 3 },
      { bucket: 'POST /api/session 192.0.2.1', window_ends_at: at(MINUTE), hits: 1 },
    ])
    .execute();
  const mail = (id: string, createdAt: string, sentAt: string | null, attempts: number) => ({
    id,
    recipient: 'shopper@example.test',
    subject: 'Confirm your email',
    body: '...',
    created_at: createdAt,
    claimed_at: null,
    sent_at: sentAt,
    attempts,
    last_error: attempts === 0 ? null : 'connection refused',
  });
  const longAgo = at(-GIVEN_UP_MAIL_RETENTION_MS - MINUTE);
  await db
    .insertInto('mail_outbox')
    .values([
      mail('mail_sent_old', longAgo, at(-SENT_MAIL_RETENTION_MS - MINUTE), 0),
      mail('mail_sent_recent', longAgo, at(-MINUTE), 0),
      mail('mail_given_up_old', longAgo, null, MAX_ATTEMPTS),
      mail('mail_given_up_recent', at(-MINUTE), null, MAX_ATTEMPTS),
      // Still being retried, however old: never swept.
      mail('mail_unsent_old', longAgo, null, MAX_ATTEMPTS - 1),
    ])
    .execute();
  const refusal = (id: string, createdAt: string) => ({
    id,
    rule: 'payments_per_ip_per_hour',
    action: 'payment',
    dimension: 'ip',
    subject: '192.0.2.1',
    reason: null,
    created_at: createdAt,
  });
  await db
    .insertInto('velocity_refusals')
    .values([refusal('vel_old', at(-REFUSALS_RETENTION_MS - MINUTE)), refusal('vel_recent', at(-MINUTE))])
    .execute();
  const signUp = (id: string, expiresAt: string) => ({
    id,
    token_hash: `hash-${id}`,
    email: `${id}@example.test`,
    name: 'Ada',
    password_hash: '$argon2id$...',
    created_at: at(-SIGN_UP_LINK_MS),
    expires_at: expiresAt,
  });
  await db
    .insertInto('sign_ups')
    .values([signUp('sgn_expired', at(-MINUTE)), signUp('sgn_pending', at(MINUTE))])
    .execute();
}

describe.each(ENGINES.map((make) => [make().name, make] as const))('the sweeper on %s', (_name, make) => {
  const engine = make();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it('deletes expired sessions, old unheld Idempotency-Keys, expired bot-check uses, old velocity counts, ended rate windows, old sent or given-up mails, old refusals, expired pending sign-ups; keeps the rest', async () => {
    const { handle, cleanup } = await engine.open();
    try {
      await seed(handle.db);
      expect(await sweepExpired(handle, SETTINGS, NOW)).toEqual({
        sessions: 1,
        idempotency_keys: 2,
        botcheck_uses: 1,
        velocity_counts: 1,
        rate_limit_hits: 1,
        mail_outbox: 2,
        velocity_refusals: 1,
        sign_ups: 1,
      });
      const { db } = handle;
      expect((await db.selectFrom('sessions').select('id').execute()).map((r) => r.id)).toEqual(['ses_live']);
      expect((await db.selectFrom('idempotency_keys').select('key').orderBy('key').execute()).map((r) => r.key)).toEqual([
        'answered-recent',
        'held-old',
      ]);
      expect((await db.selectFrom('botcheck_uses').select('fingerprint').execute()).map((r) => r.fingerprint)).toEqual(['live']);
      expect((await db.selectFrom('velocity_counts').select('minute').execute()).map((r) => r.minute)).toEqual([
        at(-60 * MINUTE),
      ]);
      expect((await db.selectFrom('rate_limit_hits').select('window_ends_at').execute()).map((r) => r.window_ends_at)).toEqual([
        at(MINUTE),
      ]);
      expect((await db.selectFrom('mail_outbox').select('id').orderBy('id').execute()).map((r) => r.id)).toEqual([
        'mail_given_up_recent',
        'mail_sent_recent',
        'mail_unsent_old',
      ]);
      expect((await db.selectFrom('velocity_refusals').select('id').execute()).map((r) => r.id)).toEqual(['vel_recent']);
      expect((await db.selectFrom('sign_ups').select('id').execute()).map((r) => r.id)).toEqual(['sgn_pending']);
      // A second sweep finds nothing left to do.
      expect(Object.values(await sweepExpired(handle, SETTINGS, NOW))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    } finally {
      await cleanup();
    }
  });

  // Each table SQLite sweeps by rowid: a row named `name` whose swept time is `at(offset)`, the line `done` draws (a row
  // before it is expired), how far past it the sweep's stop row is, and the names left in rowid order.
  const LONG_TOKENS = sweepSettings({ challengeTtlSeconds: 60 * 60 });
  const byRowid: ReadonlyArray<{
    table: 'velocity_counts' | 'idempotency_keys' | 'botcheck_uses';
    cutoff: number;
    slack: number;
    insert(db: Db, name: string, offset: number): Promise<unknown>;
    left(db: Db): Promise<string[]>;
  }> = [
    {
      table: 'velocity_counts',
      cutoff: -VELOCITY_COUNTS_KEEP_MS,
      slack: ROWID_SLACK_MS,
      insert: (db, subject, offset) =>
        db
          .insertInto('velocity_counts')
          .values({ action: 'payment', dimension: 'ip', subject, detail: '', minute: at(offset), count: 1 })
          .execute(),
      left: async (db) =>
        (await db.selectFrom('velocity_counts').select('subject').orderBy(sql`rowid`).execute()).map((r) => r.subject),
    },
    {
      table: 'idempotency_keys',
      cutoff: -IDEMPOTENCY_RETENTION_MS,
      slack: ROWID_SLACK_MS,
      insert: (db, key, offset) =>
        db
          .insertInto('idempotency_keys')
          .values({
            scope: 'ses_x',
            key,
            request_hash: 'r',
            locked_at: null,
            response_status: 201,
            response_body: '{}',
            created_at: at(offset),
          })
          .execute(),
      left: async (db) => (await db.selectFrom('idempotency_keys').select('key').orderBy(sql`rowid`).execute()).map((r) => r.key),
    },
    {
      // Tokens living an hour (BOTCHECK_CHALLENGE_TTL_SECONDS=3600): one spent at once expires an hour after a token
      // issued an hour before and spent after it, so the stop row is an hour and the slack past now.
      table: 'botcheck_uses',
      cutoff: 0,
      slack: LONG_TOKENS.tokenLifeMs + ROWID_SLACK_MS,
      insert: (db, fingerprint, offset) =>
        db
          .insertInto('botcheck_uses')
          .values({ fingerprint, expires_at: at(offset) })
          .execute(),
      left: async (db) =>
        (await db.selectFrom('botcheck_uses').select('fingerprint').orderBy(sql`rowid`).execute()).map((r) => r.fingerprint),
    },
  ];

  it.runIf(make().name === 'sqlite').each(byRowid)(
    'on SQLite reads $table by rowid up to the first row past the cutoff and its slack: what is before it goes, a row out of order beyond it waits for a later sweep',
    async ({ table, cutoff, slack, insert, left }) => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      // In rowid order, as written.
      const written = [
        ['expired', cutoff - 2 * MINUTE],
        ['live-in-slack', cutoff + slack - MINUTE],
        ['expired-written-late', cutoff - MINUTE],
        ['stop', cutoff + slack],
        ['expired-written-too-late', cutoff - MINUTE],
        ['live', cutoff + slack + 60 * MINUTE],
      ] as const;
      try {
        for (const [name, offset] of written) await insert(db, name, offset);
        expect((await sweepExpired(handle, LONG_TOKENS, NOW))[table]).toBe(2);
        expect(await left(db)).toEqual(['live-in-slack', 'stop', 'expired-written-too-late', 'live']);
        // Once the stop row is past the cutoff too, the sweep reads on to the next: nothing expired stays for good.
        const later = new Date(NOW.getTime() + slack + MINUTE);
        expect((await sweepExpired(handle, LONG_TOKENS, later))[table]).toBe(3);
        expect(await left(db)).toEqual(['live']);
      } finally {
        await cleanup();
      }
    },
  );

  it.runIf(make().name === 'sqlite')(
    "on SQLite finds each table's rows by an index or a rowid range: the only scan is the stop row's, in rowid order (the refusals' by the page's index)",
    async () => {
      const { handle, cleanup } = await engine.open();
      try {
        const explained = await explainSweeps<{ detail: string }>(handle, 'explain query plan');
        const plans: Record<string, string> = Object.fromEntries(
          explained.map(([sweep, rows]) => [sweep.table, rows.map((row) => row.detail).join(' | ')]),
        );
        for (const [table, plan] of Object.entries(plans))
          expect(plan.replace(`SCALAR SUBQUERY 1 | SCAN ${table}`, 'the stop row'), plan).not.toContain('SCAN');
        for (const table of ['idempotency_keys', 'botcheck_uses', 'velocity_counts'])
          expect(plans[table]).toContain(`SEARCH ${table} USING INTEGER PRIMARY KEY (rowid<?)`);
        expect(plans.velocity_refusals).toContain(
          'SEARCH velocity_refusals USING COVERING INDEX velocity_refusals_listed (created_at<?)',
        );
      } finally {
        await cleanup();
      }
    },
  );

  it.runIf(make().name === 'postgres')(
    "on PostgreSQL deletes a batch by its rows' addresses (a TID scan): over a backlog of 5,000 of 20,000 rows in every table, no step of a sweep's plan reads more rows than a batch",
    async () => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      // The first quarter written done with. `(key) in (select ...)` was planned over such a backlog as a hash semi-join
      // over a sequential scan of the whole table.
      const rows = 20_000;
      const old = (done: string, live: string) => sql`case when n <= ${rows / 4} then ${done} else ${live} end`;
      const expiry = old(at(-MINUTE), at(MINUTE));
      const created = (retentionMs: number) => old(at(-retentionMs - MINUTE), at(-MINUTE));
      const fill: Record<Sweep['table'], RawBuilder<unknown>> = {
        sessions: sql`insert into sessions (id, token_hash, account_id, created_at, expires_at)
          select 'ses_' || n, 'h' || n, null, ${at(-MINUTE)}, ${expiry} from generate_series(1, ${rows}) n`,
        idempotency_keys: sql`insert into idempotency_keys (scope, key, request_hash, locked_at, response_status, response_body, created_at)
          select 'ses_x', 'k' || n, 'r', null, 201, '{}', ${created(IDEMPOTENCY_RETENTION_MS)} from generate_series(1, ${rows}) n`,
        botcheck_uses: sql`insert into botcheck_uses (fingerprint, expires_at)
          select 'f' || n, ${expiry} from generate_series(1, ${rows}) n`,
        velocity_counts: sql`insert into velocity_counts (action, dimension, subject, minute, detail, count)
          select 'payment', 'ip', 's' || n, ${created(VELOCITY_COUNTS_KEEP_MS)}, '', 1 from generate_series(1, ${rows}) n`,
        rate_limit_hits: sql`insert into rate_limit_hits (bucket, window_ends_at, hits)
          select 'b' || n, ${expiry}, 1 from generate_series(1, ${rows}) n`,
        mail_outbox: sql`insert into mail_outbox (id, recipient, subject, body, created_at, claimed_at, sent_at, attempts, last_error)
          select 'mail_' || n, 'shopper@example.test', 's', 'b', ${at(-MINUTE)}, null, ${created(SENT_MAIL_RETENTION_MS)}, 0, null
          from generate_series(1, ${rows}) n`,
        velocity_refusals: sql`insert into velocity_refusals (id, rule, action, dimension, subject, reason, created_at)
          select 'vel_' || n, 'r', 'payment', 'ip', '192.0.2.1', null, ${created(REFUSALS_RETENTION_MS)} from generate_series(1, ${rows}) n`,
        sign_ups: sql`insert into sign_ups (id, token_hash, email, name, password_hash, created_at, expires_at)
          select 'sgn_' || n, 't' || n, n || '@example.test', 'Ada', 'p', ${at(-MINUTE)}, ${expiry} from generate_series(1, ${rows}) n`,
      };
      try {
        for (const insert of Object.values(fill)) await insert.execute(db);
        await sql`analyze`.execute(db);
        const explained = await explainSweeps<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
          handle,
          'explain (analyze, format json)',
        );
        for (const [sweep, rows] of explained) {
          const plan = rows[0]?.['QUERY PLAN'][0]?.Plan;
          if (plan === undefined) throw new Error(`no plan of ${sweep.table}'s sweep`);
          const nodes = flatten(plan);
          const deleting = plan.Plans?.find((node) => node['Parent Relationship'] === 'Outer');
          expect(deleting?.['Node Type'], sweep.table).toBe('Tid Scan');
          const read = nodes.map((node) => node['Actual Rows'] + (node['Rows Removed by Filter'] ?? 0));
          expect(Math.max(...read), sweep.table).toBe(SWEEP_BATCH);
        }
        // The explained batches were deleted too; the sweep takes the rest, a batch at a time.
        const swept = await sweepExpired(handle, SETTINGS, NOW);
        for (const sweep of SWEEPS) expect(swept[sweep.table], sweep.table).toBe(rows / 4 - SWEEP_BATCH);
      } finally {
        await cleanup();
      }
    },
  );

  it("takes a spent bot-check token's slack from the longest life of any provider's tokens, the configured challenges' if longer", () => {
    expect(sweepSettings({ challengeTtlSeconds: 60 * 60 }).tokenLifeMs).toBe(60 * 60 * 1000);
    // Turnstile's tokens live 300 s.
    expect(sweepSettings({ challengeTtlSeconds: 120 }).tokenLifeMs).toBe(300 * 1000);
  });

  it('the app sweeps by itself every SWEEP_INTERVAL_SECONDS, in a job apart from requests', async () => {
    const { config, handle, cleanup } = await engine.open();
    // Nothing but the app's own timer can delete it: no request is made.
    await handle.db
      .insertInto('sessions')
      .values({ id: 'ses_expired', token_hash: 'h', account_id: null, created_at: at(-60 * MINUTE), expires_at: at(-MINUTE) })
      .execute();
    const app = await buildApp(testConfig(config, null, { sweepIntervalMs: 100 }), { database: handle });
    try {
      await expect
        .poll(async () => (await handle.db.selectFrom('sessions').select('id').execute()).length, { timeout: 10_000 })
        .toBe(0);
    } finally {
      await app.close();
      await cleanup();
    }
  });

  it('two instances sweeping at once delete each expired row once, in batches, and nothing live', async () => {
    const { config, handle, cleanup } = await engine.open();
    // The other instance: its own connection (pool), as another process would have.
    const other = await openDatabase(config);
    try {
      const expired = 2 * SWEEP_BATCH + 500;
      await spendExpiredTokens(handle.db, expired);
      await handle.db
        .insertInto('botcheck_uses')
        .values({ fingerprint: 'live', expires_at: at(MINUTE) })
        .execute();
      const [mine, theirs] = await Promise.all([sweepExpired(handle, SETTINGS, NOW), sweepExpired(other, SETTINGS, NOW)]);
      expect(mine.botcheck_uses + theirs.botcheck_uses).toBe(expired);
      expect((await handle.db.selectFrom('botcheck_uses').select('fingerprint').execute()).map((r) => r.fingerprint)).toEqual([
        'live',
      ]);
    } finally {
      await other.close();
      await cleanup();
    }
  });

  it.runIf(make().name === 'postgres')(
    "on PostgreSQL a sweep takes the expired rows another instance's batch has not locked, without waiting for its commit",
    async () => {
      const { config, handle, cleanup } = await engine.open();
      const other = await openDatabase(config);
      let commit = (): void => undefined;
      try {
        await spendExpiredTokens(handle.db, SWEEP_BATCH + 500);
        const tokens = SWEEPS.find((sweep) => sweep.table === 'botcheck_uses');
        if (tokens === undefined) throw new Error('no sweep of botcheck_uses');
        // One instance's batch deleted, its transaction not committed: its rows stay locked.
        const committed = new Promise<void>((resolve) => {
          commit = resolve;
        });
        let batchDeleted = (): void => undefined;
        const deleted = new Promise<void>((resolve) => {
          batchDeleted = resolve;
        });
        const open = handle.db.transaction().execute(async (trx) => {
          await sweepBatch('postgres', tokens, SETTINGS, NOW).execute(trx);
          batchDeleted();
          await committed;
        });
        await deleted;
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new Error('the sweep waited for the other batch')), 5_000);
        });
        const theirs = await Promise.race([sweepExpired(other, SETTINGS, NOW), waited]).finally(() => clearTimeout(timer));
        expect(theirs.botcheck_uses).toBe(500);
        commit();
        await open;
        expect(await handle.db.selectFrom('botcheck_uses').select('fingerprint').execute()).toEqual([]);
      } finally {
        commit();
        await other.close();
        await cleanup();
      }
    },
  );
});
