import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import { newId, nowIso } from '../ids.ts';

// Velocity rules: how many times one subject (an IP, an account, a card fingerprint, ...) did something within a
// window. The events live in the database so that every server instance counts the same attempts; a rule is checked
// before the action it limits (before any gateway call for payments) and a refusal is recorded for the merchant.

/**
 * Who or what an event is counted against. `card`: a keyed hash of the card's BIN, last four and expiry (never the
 * number); `bin`: the card's first six digits, counted shop-wide; `shop`: the whole shop (one subject, `all`).
 */
export type Dimension = 'ip' | 'account' | 'email' | 'session' | 'order' | 'card' | 'bin' | 'shop';
/**
 * What is counted. `card_used`: a payment's card, kept in the event's detail so distinct cards can be counted;
 * `decline` and `approval`: the gateway's answers (against the BIN with the card in the detail, for the BIN rule).
 */
export type VelocityAction =
  | 'sign_in'
  | 'sign_up'
  | 'order'
  | 'checkout_session'
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

/** Events older than this are of no rule's concern (the longest window is a day): the sweeper deletes them (src/jobs/). */
export const VELOCITY_EVENTS_KEEP_MS = 24 * 60 * 60 * 1000;

export class Velocity {
  readonly #db: Db;
  readonly #clock: () => Date;

  constructor(db: Db, clock: () => Date = () => new Date()) {
    this.#db = db;
    this.#clock = clock;
  }

  /** Counts one event of `action` against each subject given; returns the events' ids (see forget). */
  async record(action: VelocityAction, subjects: Subjects, detail: string | null = null): Promise<string[]> {
    const now = this.#clock();
    const rows = Object.entries(subjects)
      .filter((entry): entry is [Dimension, string] => entry[1] !== undefined)
      .map(([dimension, subject]) => ({ id: newId('vel'), action, dimension, subject, detail, created_at: nowIso(now) }));
    if (rows.length > 0) await this.#db.insertInto('velocity_events').values(rows).execute();
    return rows.map((row) => row.id);
  }

  /** Takes back events (a sign-in that succeeded is not a failure to count). */
  async forget(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.#db.deleteFrom('velocity_events').where('id', 'in', ids).execute();
  }

  /**
   * The first limit a subject is past, or null. `recorded` are the actions this request has just recorded: its own
   * event is in the count, so that limit allows `max` and refuses the one after; the others (declines) count past
   * outcomes, refused once `max` are reached.
   * Recording before checking keeps concurrent requests honest: each one counts every event recorded before it.
   */
  async exceeded(limits: readonly Limit[], subjects: Subjects, recorded: readonly VelocityAction[]): Promise<Exceeded | null> {
    const now = this.#clock().getTime();
    for (const limit of limits) {
      const subject = subjects[limit.dimension];
      if (subject === undefined) continue;
      const row = await this.#events(limit.action, limit.dimension, subject, now - limit.windowMs)
        .select((eb) => [
          (limit.distinct === true ? eb.fn.count<string | number>('detail').distinct() : eb.fn.countAll<string | number>()).as(
            'count',
          ),
          eb.fn.min<string>('created_at').as('oldest'),
        ])
        .executeTakeFirstOrThrow();
      const allowed = limit.max + (recorded.includes(limit.action) ? 1 : 0);
      if (Number(row.count) >= allowed) {
        const oldest = row.oldest === null ? now : new Date(row.oldest).getTime();
        return { limit, subject, retryAfterSeconds: Math.max(1, Math.ceil((oldest + limit.windowMs - now) / 1000)) };
      }
    }
    return null;
  }

  /** How many distinct details (cards) the events of `action` by one subject had within `windowMs`. */
  async countDistinct(action: VelocityAction, dimension: Dimension, subject: string, windowMs: number): Promise<number> {
    const row = await this.#events(action, dimension, subject, this.#clock().getTime() - windowMs)
      .select((eb) => eb.fn.count<string | number>('detail').distinct().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** How many events of `action` one subject had within `windowMs` (the shop's declines, for the alert). */
  async count(action: VelocityAction, dimension: Dimension, subject: string, windowMs: number): Promise<number> {
    const row = await this.#events(action, dimension, subject, this.#clock().getTime() - windowMs)
      .select((eb) => eb.fn.countAll<string | number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  #events(action: VelocityAction, dimension: Dimension, subject: string, sinceMs: number) {
    return this.#db
      .selectFrom('velocity_events')
      .where('action', '=', action)
      .where('dimension', '=', dimension)
      .where('subject', '=', subject)
      .where('created_at', '>', nowIso(new Date(sinceMs)));
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
