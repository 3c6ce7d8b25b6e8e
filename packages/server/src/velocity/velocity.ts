import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { OnConflictBuilder, QueryCreator } from 'kysely';
import type { Db } from '../db/connect.ts';
import { byShape, prepared } from '../db/prepared.ts';
import type { Database } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';

// Velocity rules: how many times one subject (an IP, an account, a card fingerprint, ...) did something within a
// window. The events live in the database so that every server instance counts the same attempts; a rule is checked
// before the action it limits (before any gateway call for payments) and a refusal is recorded for the merchant.

/**
 * Who or what an event is counted against. `card`: a keyed hash of the card's BIN, last four and expiry (never the
 * number); `card_digits`: a keyed hash of its BIN and last four only, the same whatever expiry a script tries with
 * the number; `bin`: the card's first six digits, counted shop-wide; `shop`: the whole shop (one subject, `all`).
 */
export type Dimension = 'ip' | 'account' | 'email' | 'session' | 'order' | 'card' | 'card_digits' | 'bin' | 'shop';
/**
 * What is counted. `card_used`: a payment's card, kept in the event's detail so distinct cards can be counted;
 * `decline` and `approval`: the gateway's answers (against the BIN with the card in the detail, for the BIN rule).
 */
export type VelocityAction =
  | 'sign_in'
  | 'sign_up'
  | 'order'
  | 'checkout_session'
  | 'card_save'
  | 'card_save_failure'
  | 'payment'
  | 'decline'
  | 'approval'
  | 'card_used'
  | 'botcheck_challenge';

export type Subjects = Partial<Record<Dimension, string>>;

/** At most `max` events of `action` by one subject of `dimension` within `windowMs`. */
export interface Limit {
  /** Stable name, in refusals and logs: `payments_per_ip_per_hour`. */
  rule: string;
  action: VelocityAction;
  dimension: Dimension;
  max: number;
  windowMs: number;
  /** Count distinct event details (distinct cards) instead of events. */
  distinct?: true;
}

export interface Exceeded {
  limit: Limit;
  subject: string;
  retryAfterSeconds: number;
}

/** Counts older than this are of no rule's concern (the longest window is a day): the sweeper deletes them (src/jobs/). */
export const VELOCITY_COUNTS_KEEP_MS = 24 * 60 * 60 * 1000;
/**
 * Events are counted per minute: a rule reads at most its window's minutes of a subject, however many events they
 * hold. A window counts the minute it began in too, so it may hold up to a minute more: a refusal comes early, never late.
 */
const MINUTE_MS = 60 * 1000;
/**
 * The minutes a request names are few (now, and each window's start): their texts are kept, not formatted again for
 * each count (a payment names about fifteen). Cleared whenever it holds more than a few minutes' worth.
 */
const minuteTexts = new Map<number, string>();
const minuteOf = (ms: number): string => {
  const start = ms - (ms % MINUTE_MS);
  let text = minuteTexts.get(start);
  if (text === undefined) {
    if (minuteTexts.size >= 64) minuteTexts.clear();
    text = nowIso(new Date(start));
    minuteTexts.set(start, text);
  }
  return text;
};

/** An event to count: `action` against each of `subjects`, `detail` what it was (a card, for the distinct rules). */
export interface CountedEvent {
  action: VelocityAction;
  subjects: Subjects;
  detail?: string | null;
}

/** What `record` counted, so it can be taken back (`forget`). */
export interface Recorded {
  action: VelocityAction;
  subjects: Array<[Dimension, string]>;
  detail: string;
  minute: string;
}

// A payment records and counts a dozen times: the statements are compiled once (db/prepared.ts), one per number of
// subjects (a request has at most one of each dimension) or per list of tallies counted at once. Their values are
// positional (an array: prepared.ts names a value by its index), each event or tally a fixed stride of them, so a
// request builds a flat list instead of an object of generated names.
type Params = Array<string | number>;
/** Positional values, in an array or among a statement's other values (countedWith). */
type Positional = { readonly [index: number]: string | number };
const range = (size: number): number[] => Array.from({ length: size }, (_, i) => i);

/** One count per (action, subject, detail). Params: the minute, then action, dimension, subject, detail of each. */
const RECORD_STRIDE = 4;
const countKey = ['action', 'dimension', 'subject', 'minute', 'detail'] as const;
/** The i-th count's key, in countKey's order. */
const countKeyOf = (p: Positional, i: number): [string, string, string, string, string] => [
  p[1 + i * RECORD_STRIDE] as string,
  p[2 + i * RECORD_STRIDE] as string,
  p[3 + i * RECORD_STRIDE] as string,
  p[0] as string,
  p[4 + i * RECORD_STRIDE] as string,
];
const countedOnce = (oc: OnConflictBuilder<Database, 'velocity_counts'>) =>
  oc.columns([...countKey]).doUpdateSet({ count: sql<number>`velocity_counts.count + 1` });
const recordQuery = byShape((size: number) =>
  prepared(
    (db, p: Params) =>
      db
        .insertInto('velocity_counts')
        .values(
          range(size).map((i) => {
            const [action, dimension, subject, minute, detail] = countKeyOf(p, i);
            return { action, dimension, subject, minute, detail, count: 1 };
          }),
        )
        .onConflict(countedOnce),
    // Counts lost in a power cut let a few more attempts through (README, "Durability"); an outcome's count is
    // written with the outcome (countedWith), flushed with it.
    { commit: 'relaxed' },
  ),
);

/**
 * Events to count (recordAll's), as the values of the statement that counts them: the minute, then RECORD_STRIDE
 * values a subject counted. Counted by `recordCounts`, or inside another statement by `countedWith`.
 */
export interface Counts {
  readonly params: Params;
  readonly size: number;
}

function countsOf(
  events: ReadonlyArray<{ action: string; subjects: ReadonlyArray<[string, string | undefined]>; detail: string }>,
  minute: string,
): Counts {
  // Subjects a request does not have (no account) are left out: one row per subject counted.
  const params: Params = [minute];
  for (const { action, subjects, detail } of events) {
    for (const [dimension, subject] of subjects) if (subject !== undefined) params.push(action, dimension, subject, detail);
  }
  return { params, size: (params.length - 1) / RECORD_STRIDE };
}

export async function recordCounts(db: Db, counts: Counts): Promise<void> {
  if (counts.size > 0) await recordQuery(counts.size).execute(db, counts.params);
}

/**
 * The upsert of `size` counts (their values `p`: a Counts' params, among the statement's other values) as a WITH query
 * of a PostgreSQL statement, counting only when the statement's WITH query `when` has a row: a count written in the
 * statement that writes what it counts (payments.repository.ts, an attempt's outcome), committed with it or not at all.
 */
export function countedWith(qb: QueryCreator<Database>, when: string, p: Positional, size: number) {
  const rows = range(size).map((i) => sql`(${sql.join(countKeyOf(p, i))})`);
  return qb
    .insertInto('velocity_counts')
    .columns([...countKey, 'count'])
    .expression(
      sql`select counted.*, 1 from (values ${sql.join(rows)}) as counted where exists (select 1 from ${sql.table(when)})`,
    )
    .onConflict(countedOnce);
}

/**
 * One number a rule needs: the events of one subject's action within a window, or (`distinctUpTo`) its distinct details
 * (cards) counted up to that bound only, so a subject that used thousands of cards costs a count no more than its limit.
 */
export interface Tally {
  action: VelocityAction;
  dimension: Dimension;
  subject: string;
  windowMs: number;
  distinctUpTo?: number;
}

interface EventsParams {
  action: string;
  dimension: string;
  subject: string;
  since: string;
}
const eventsOf = (db: Pick<Db, 'selectFrom'>, p: EventsParams) =>
  db
    .selectFrom('velocity_counts')
    .where('action', '=', p.action)
    .where('dimension', '=', p.dimension)
    .where('subject', '=', p.subject)
    .where('minute', '>=', p.since);
/** A tally's params: action, dimension, subject, since (a minute), the distinct details' bound (0 for a sum). */
const TALLY_STRIDE = 5;
const paramsOf = (p: Params, i: number): EventsParams => ({
  action: p[i * TALLY_STRIDE] as string,
  dimension: p[1 + i * TALLY_STRIDE] as string,
  subject: p[2 + i * TALLY_STRIDE] as string,
  since: p[3 + i * TALLY_STRIDE] as string,
});

/**
 * Tallies in one statement (a round trip on PostgreSQL), one column each (`t0`, `t1`, ...): `kinds` says which are
 * sums of events (`e`) and which distinct details up to their bound (`d`). Params: TALLY_STRIDE a tally.
 */
const tallyQuery = byShape((kinds: string) =>
  prepared((db, p: Params) =>
    db.selectNoFrom((eb) =>
      [...kinds].map((kind, i) =>
        kind === 'd'
          ? eb
              .selectFrom((inner) =>
                eventsOf(inner, paramsOf(p, i))
                  .select('detail')
                  .distinct()
                  .limit(p[4 + i * TALLY_STRIDE] as number)
                  .as('details'),
              )
              .select((count) => count.fn.countAll<string | number>().as('count'))
              .as(`t${i}`)
          : eventsOf(eb, paramsOf(p, i))
              .select((sum) => sum.fn.sum<string | number>('count').as('events'))
              .as(`t${i}`),
      ),
    ),
  ),
);

export class Velocity {
  readonly #db: Db;
  readonly #clock: () => Date;

  constructor(db: Db, clock: () => Date = () => new Date()) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Counts one event of `action` against each subject given. */
  async record(action: VelocityAction, subjects: Subjects, detail: string | null = null): Promise<Recorded> {
    const [recorded] = await this.recordAll([{ action, subjects, detail }]);
    if (recorded === undefined) throw new Error('velocity: nothing recorded');
    return recorded;
  }

  /** Counts several actions' events at once, in one statement (a payment's card counts two). */
  async recordAll(events: readonly CountedEvent[]): Promise<Recorded[]> {
    const minute = minuteOf(this.#clock().getTime());
    const recorded = events.map(
      ({ action, subjects, detail }): Recorded => ({
        action,
        subjects: Object.entries(subjects).filter((entry): entry is [Dimension, string] => entry[1] !== undefined),
        detail: detail ?? '',
        minute,
      }),
    );
    await recordCounts(this.#db, countsOf(recorded, minute));
    return recorded;
  }

  /** What recordAll would count now, for the caller to count with another write (recordCounts, countedWith). */
  counts(events: readonly CountedEvent[]): Counts {
    const minute = minuteOf(this.#clock().getTime());
    return countsOf(
      events.map(({ action, subjects, detail }) => ({ action, subjects: Object.entries(subjects), detail: detail ?? '' })),
      minute,
    );
  }

  /** Takes back what `record` counted (a sign-in that succeeded is not a failure to count). */
  async forget(recorded: Recorded): Promise<void> {
    for (const [dimension, subject] of recorded.subjects) {
      await this.#db
        .updateTable('velocity_counts')
        .set({ count: sql<number>`count - 1` })
        .where('action', '=', recorded.action)
        .where('dimension', '=', dimension)
        .where('subject', '=', subject)
        .where('minute', '=', recorded.minute)
        .where('detail', '=', recorded.detail)
        .execute();
    }
  }

  /**
   * The first limit a subject is past, or null. `recorded` are the actions this request has just recorded: its own
   * event is in the count, so that limit allows `max` and refuses the one after; the others (declines) count past
   * outcomes, refused once `max` are reached.
   * Recording before checking keeps concurrent requests honest: each one counts every event recorded before it.
   */
  async exceeded(limits: readonly Limit[], subjects: Subjects, recorded: readonly VelocityAction[]): Promise<Exceeded | null> {
    return (await this.exceededAnd(limits, subjects, recorded, [])).exceeded;
  }

  /**
   * `exceeded`, and `also`'s tallies counted in the same statement (what a rule checked next needs: the BIN rule's
   * declined cards), so a payment's card rules cost one statement.
   */
  async exceededAnd(
    limits: readonly Limit[],
    subjects: Subjects,
    recorded: readonly VelocityAction[],
    also: readonly Tally[],
  ): Promise<{ exceeded: Exceeded | null; also: number[] }> {
    const now = this.#clock().getTime();
    const checked: Array<{ limit: Limit; subject: string; allowed: number }> = [];
    const tallies: Tally[] = [];
    for (const limit of limits) {
      const subject = subjects[limit.dimension];
      if (subject === undefined) continue;
      const allowed = limit.max + (recorded.includes(limit.action) ? 1 : 0);
      checked.push({ limit, subject, allowed });
      const { action, dimension, windowMs } = limit;
      // A distinct count stops at the limit: past it the count changes nothing.
      tallies.push(
        limit.distinct === true
          ? { action, dimension, subject, windowMs, distinctUpTo: allowed }
          : { action, dimension, subject, windowMs },
      );
    }
    const counts = await this.#tally(tallies.concat(also), now);
    const past = checked.find((rule, i) => (counts[i] ?? 0) >= rule.allowed);
    const alsoCounts = counts.slice(checked.length);
    if (past === undefined) return { exceeded: null, also: alsoCounts };
    const { limit, subject } = past;
    const oldest = new Date(await this.#oldest(limit, subject, now - limit.windowMs)).getTime();
    const retryAfterSeconds = Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000));
    return { exceeded: { limit, subject, retryAfterSeconds }, also: alsoCounts };
  }

  /**
   * How many distinct details (cards) the events of `action` by one subject had within `windowMs`, counted up to
   * `upTo` only: what a subject did past that costs the count nothing.
   */
  async countDistinct(
    action: VelocityAction,
    dimension: Dimension,
    subject: string,
    windowMs: number,
    upTo: number,
  ): Promise<number> {
    const [count] = await this.#tally([{ action, dimension, subject, windowMs, distinctUpTo: upTo }], this.#clock().getTime());
    return count ?? 0;
  }

  /** How many events of `action` one subject had within `windowMs` (the shop's declines, for the alert). */
  async count(action: VelocityAction, dimension: Dimension, subject: string, windowMs: number): Promise<number> {
    const [count] = await this.#tally([{ action, dimension, subject, windowMs }], this.#clock().getTime());
    return count ?? 0;
  }

  /**
   * The tallies as of `nowMs`, in one statement (one round trip on PostgreSQL), each reading at most its window's
   * minutes of its subject's rows. On SQLite too: one statement per distinct count (issue 10, cpu6) was three statements
   * for the card rules where one does the same reads, once SQLite keeps its temporary b-trees in memory (db/connect.ts).
   */
  async #tally(tallies: readonly Tally[], nowMs: number): Promise<number[]> {
    if (tallies.length === 0) return [];
    const params: Params = [];
    let kinds = '';
    for (const tally of tallies) {
      params.push(tally.action, tally.dimension, tally.subject, minuteOf(nowMs - tally.windowMs), tally.distinctUpTo ?? 0);
      kinds += tally.distinctUpTo === undefined ? 'e' : 'd';
    }
    const row = (await tallyQuery(kinds).takeFirst(this.#db, params)) as Record<string, string | number | null> | undefined;
    return tallies.map((_, i) => Number(row?.[`t${i}`] ?? 0));
  }

  /** The start of the oldest minute a refused subject was counted in since `sinceMs` (its Retry-After). */
  async #oldest(limit: Limit, subject: string, sinceMs: number): Promise<string> {
    const row = await eventsOf(this.#db, { ...limit, subject, since: minuteOf(sinceMs) })
      .select('minute')
      .orderBy('minute')
      .limit(1)
      .executeTakeFirst();
    return row?.minute ?? minuteOf(sinceMs);
  }

  /** Keeps the refusal for the merchant and logs it (never card data: subjects are IPs, ids and HMACs of emails). */
  async noteRefusal(exceeded: Exceeded, log: FastifyBaseLogger): Promise<void> {
    const { limit, subject } = exceeded;
    await this.#db
      .insertInto('velocity_refusals')
      .values({
        id: newId('vel'),
        rule: limit.rule,
        action: limit.action,
        dimension: limit.dimension,
        subject,
        reason: null,
        created_at: nowIso(this.#clock()),
      })
      .execute();
    log.warn(
      { rule: limit.rule, dimension: limit.dimension, subject, retryAfterSeconds: exceeded.retryAfterSeconds },
      'velocity rule refused an action',
    );
  }

  /** Keeps a bot-check refusal for the merchant beside the rules' (rule `botcheck_failed`), counted against the IP. */
  async noteBotcheckRefusal(action: string, ip: string, reason: string): Promise<void> {
    await this.#db
      .insertInto('velocity_refusals')
      .values({
        id: newId('vel'),
        rule: 'botcheck_failed',
        action,
        dimension: 'ip',
        subject: ip,
        reason,
        created_at: nowIso(this.#clock()),
      })
      .execute();
  }
}
