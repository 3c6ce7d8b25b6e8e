import type { FastifyBaseLogger } from 'fastify';
import { sql } from 'kysely';
import type { Db } from '../db/connect.ts';
import { prepared } from '../db/prepared.ts';
import type { Prepared } from '../db/prepared.ts';
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
const minuteOf = (ms: number): string => nowIso(new Date(ms - (ms % MINUTE_MS)));

/** What `record` counted, so it can be taken back (`forget`). */
export interface Recorded {
  action: VelocityAction;
  subjects: Array<[Dimension, string]>;
  detail: string;
  minute: string;
}

interface Counted {
  events: number;
}

// A payment records and counts a dozen times: the statements are compiled once (db/prepared.ts), one per number of
// subjects (a request has at most one of each dimension) or of rules counted at once.
type Params = Record<string, string | number>;
const shapes = <T>(make: (size: number) => T): ((size: number) => T) => {
  const made = new Map<number, T>();
  return (size) => {
    let shape = made.get(size);
    if (shape === undefined) {
      shape = make(size);
      made.set(size, shape);
    }
    return shape;
  };
};
const range = (size: number): number[] => Array.from({ length: size }, (_, i) => i);

/** One count per (action, subject, detail): `action0`, `dimension0`, `subject0`, `detail0`, ... */
const recordQuery = shapes((size) =>
  prepared((db, p: Params) =>
    db
      .insertInto('velocity_counts')
      .values(
        range(size).map((i) => ({
          action: p[`action${i}`] as string,
          dimension: p[`dimension${i}`] as string,
          subject: p[`subject${i}`] as string,
          minute: p.minute as string,
          detail: p[`detail${i}`] as string,
          count: 1,
        })),
      )
      .onConflict((oc) =>
        oc
          .columns(['action', 'dimension', 'subject', 'minute', 'detail'])
          .doUpdateSet({ count: sql<number>`velocity_counts.count + 1` }),
      ),
  ),
);

/** The events of `size` (action, dimension, subject) since a minute: `action0`, `dimension0`, `subject0`, ... */
const countQuery = shapes((size) =>
  prepared((db, p: Params) =>
    db
      .selectFrom('velocity_counts')
      .select((eb) => ['action', 'dimension', 'subject', eb.fn.sum<string | number>('count').as('events')])
      .where((eb) =>
        eb.or(
          range(size).map((i) =>
            eb.and([
              eb('action', '=', p[`action${i}`] as string),
              eb('dimension', '=', p[`dimension${i}`] as string),
              eb('subject', '=', p[`subject${i}`] as string),
              eb('minute', '>=', p.since as string),
            ]),
          ),
        ),
      )
      .groupBy(['action', 'dimension', 'subject']),
  ),
);

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
/** Distinct details, counted up to `limit`. */
const countDistinctUpTo: Prepared<EventsParams & { limit: number }, { count: string | number }> = prepared((db, p) =>
  db
    .selectFrom((inner) => eventsOf(inner, p).select('detail').distinct().limit(p.limit).as('details'))
    .select((eb) => eb.fn.countAll<string | number>().as('count')),
);

export class Velocity {
  readonly #db: Db;
  readonly #clock: () => Date;

  constructor(db: Db, clock: () => Date = () => new Date()) {
    this.#db = db;
    this.#clock = clock;
  }

  /** The same rules written and read through `db`: a transaction, so counts commit with what they let through. */
  within(db: Db): Velocity {
    return new Velocity(db, this.#clock);
  }

  /** Counts one event of `action` against each subject given. */
  async record(action: VelocityAction, subjects: Subjects, detail: string | null = null): Promise<Recorded> {
    const [recorded] = await this.recordAll([{ action, subjects, detail }]);
    if (recorded === undefined) throw new Error('velocity: nothing recorded');
    return recorded;
  }

  /** Counts several actions' events at once, in one statement (a payment's card counts two). */
  async recordAll(
    events: ReadonlyArray<{ action: VelocityAction; subjects: Subjects; detail?: string | null }>,
  ): Promise<Recorded[]> {
    const minute = minuteOf(this.#clock().getTime());
    const recorded = events.map(
      ({ action, subjects, detail }): Recorded => ({
        action,
        subjects: Object.entries(subjects).filter((entry): entry is [Dimension, string] => entry[1] !== undefined),
        detail: detail ?? '',
        minute,
      }),
    );
    const params: Params = { minute };
    let size = 0;
    for (const { action, subjects, detail } of recorded) {
      for (const [dimension, subject] of subjects) {
        Object.assign(params, {
          [`action${size}`]: action,
          [`dimension${size}`]: dimension,
          [`subject${size}`]: subject,
          [`detail${size}`]: detail,
        });
        size += 1;
      }
    }
    if (size > 0) await recordQuery(size).execute(this.#db, params);
    return recorded;
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
    const now = this.#clock().getTime();
    const checked = limits.flatMap((limit) => {
      const subject = subjects[limit.dimension];
      return subject === undefined ? [] : [{ limit, subject }];
    });
    // One query per window length (a list's rules share one or two), each counting every rule of that length.
    const counted = new Map<string, Counted>();
    const counts = checked.filter(({ limit }) => limit.distinct !== true);
    for (const windowMs of new Set(counts.map(({ limit }) => limit.windowMs))) {
      const sameWindow = counts.filter(({ limit }) => limit.windowMs === windowMs);
      for (const [key, value] of await this.#count(sameWindow, now - windowMs)) counted.set(`${windowMs}:${key}`, value);
    }
    for (const { limit, subject } of checked) {
      const allowed = limit.max + (recorded.includes(limit.action) ? 1 : 0);
      const past =
        limit.distinct === true
          ? (await this.#countDistinct(limit, subject, now - limit.windowMs, allowed)) >= allowed
          : (counted.get(`${limit.windowMs}:${keyOf(limit.action, limit.dimension, subject)}`)?.events ?? 0) >= allowed;
      if (!past) continue;
      const oldest = new Date(await this.#oldest(limit, subject, now - limit.windowMs)).getTime();
      return { limit, subject, retryAfterSeconds: Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000)) };
    }
    return null;
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
    const since = minuteOf(this.#clock().getTime() - windowMs);
    const row = await countDistinctUpTo.takeFirst(this.#db, { action, dimension, subject, since, limit: upTo });
    return Number(row?.count ?? 0);
  }

  /** How many events of `action` one subject had within `windowMs` (the shop's declines, for the alert). */
  async count(action: VelocityAction, dimension: Dimension, subject: string, windowMs: number): Promise<number> {
    const limit = { rule: '', action, dimension, max: 0, windowMs };
    const counted = await this.#count([{ limit, subject }], this.#clock().getTime() - windowMs);
    return counted.get(keyOf(action, dimension, subject))?.events ?? 0;
  }

  /** The events of each (action, dimension, subject) since `sinceMs`: at most a window's minutes of rows each. */
  async #count(checked: ReadonlyArray<{ limit: Limit; subject: string }>, sinceMs: number): Promise<Map<string, Counted>> {
    if (checked.length === 0) return new Map();
    const params: Params = { since: minuteOf(sinceMs) };
    checked.forEach(({ limit, subject }, i) => {
      params[`action${i}`] = limit.action;
      params[`dimension${i}`] = limit.dimension;
      params[`subject${i}`] = subject;
    });
    const { rows } = await countQuery(checked.length).execute(this.#db, params);
    return new Map(rows.map((row) => [keyOf(row.action, row.dimension, row.subject), { events: Number(row.events) }]));
  }

  /**
   * Distinct details (cards) of one subject since `sinceMs`, counted up to `allowed` only: a subject that used
   * thousands of cards (a card tester refused at the fifth) costs the next check no more than the limit.
   */
  async #countDistinct(limit: Limit, subject: string, sinceMs: number, allowed: number): Promise<number> {
    const row = await countDistinctUpTo.takeFirst(this.#db, {
      action: limit.action,
      dimension: limit.dimension,
      subject,
      since: minuteOf(sinceMs),
      limit: allowed,
    });
    return Number(row?.count ?? 0);
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

const keyOf = (action: string, dimension: string, subject: string): string => `${action} ${dimension} ${subject}`;
