import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { testConfig } from '../testing/config.ts';
import type { Db } from '../db/connect.ts';
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
  VELOCITY_ROWID_SLACK_MS,
  sweepExpired,
} from './sweeper.ts';

const NOW = new Date('2026-11-23T12:00:00.000Z');
const at = (offsetMs: number): string => nowIso(new Date(NOW.getTime() + offsetMs));
const MINUTE = 60_000;
const SIGN_UP_LINK_MS = SIGN_UP_LINK_HOURS * 60 * MINUTE;

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
      expect(await sweepExpired(handle, NOW)).toEqual({
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
      expect(Object.values(await sweepExpired(handle, NOW))).toEqual([0, 0, 0, 0, 0, 0, 0, 0]);
    } finally {
      await cleanup();
    }
  });

  it.runIf(make().name === 'sqlite')(
    'on SQLite reads velocity counts by rowid up to the first one past the cutoff and its slack: what is before it goes, a row out of order beyond it waits for a later sweep',
    async () => {
      const { handle, cleanup } = await engine.open();
      const { db } = handle;
      const cutoff = -VELOCITY_COUNTS_KEEP_MS;
      // In rowid order, as written.
      const written = [
        ['expired', cutoff - 2 * MINUTE],
        ['live-in-slack', cutoff + MINUTE],
        ['expired-written-late', cutoff - MINUTE],
        ['stop', cutoff + VELOCITY_ROWID_SLACK_MS],
        ['expired-written-too-late', cutoff - MINUTE],
        ['live', -60 * MINUTE],
      ] as const;
      try {
        for (const [subject, offset] of written)
          await db
            .insertInto('velocity_counts')
            .values({ action: 'payment', dimension: 'ip', subject, detail: '', minute: at(offset), count: 1 })
            .execute();
        const left = async () =>
          (await db.selectFrom('velocity_counts').select('subject').orderBy(sql`rowid`).execute()).map((r) => r.subject);
        expect((await sweepExpired(handle, NOW)).velocity_counts).toBe(2);
        expect(await left()).toEqual(['live-in-slack', 'stop', 'expired-written-too-late', 'live']);
        // Once the stop row is past the cutoff too, the sweep reads on to the next: nothing expired stays for good.
        const later = new Date(NOW.getTime() + VELOCITY_ROWID_SLACK_MS + MINUTE);
        expect((await sweepExpired(handle, later)).velocity_counts).toBe(3);
        expect(await left()).toEqual(['live']);
      } finally {
        await cleanup();
      }
    },
  );

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
      const rows = Array.from({ length: expired }, (_, n) => ({ fingerprint: `expired-${n}`, expires_at: at(-MINUTE) }));
      for (let n = 0; n < rows.length; n += 500)
        await handle.db
          .insertInto('botcheck_uses')
          .values(rows.slice(n, n + 500))
          .execute();
      await handle.db
        .insertInto('botcheck_uses')
        .values({ fingerprint: 'live', expires_at: at(MINUTE) })
        .execute();
      const [mine, theirs] = await Promise.all([sweepExpired(handle, NOW), sweepExpired(other, NOW)]);
      expect(mine.botcheck_uses + theirs.botcheck_uses).toBe(expired);
      expect((await handle.db.selectFrom('botcheck_uses').select('fingerprint').execute()).map((r) => r.fingerprint)).toEqual([
        'live',
      ]);
    } finally {
      await other.close();
      await cleanup();
    }
  });
});
