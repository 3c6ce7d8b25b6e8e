import type { Db } from '../db/connect.ts';
import { prepared } from '../db/prepared.ts';
import { nowIso } from '../ids.ts';

/** Saved answers are replayed at least this long (Stripe keeps them 24 h). */
export const IDEMPOTENCY_RETENTION_MS = 48 * 60 * 60 * 1000;
/**
 * By default a holder that has not finished after this long is presumed dead (crash) and its key may be taken over;
 * the app passes a pending attempt's lease instead (config.ts staleAttemptMsFor), longer than any request can run.
 */
export const IDEMPOTENCY_LOCK_TIMEOUT_MS = 5 * 60 * 1000;

// What every keyed request runs, compiled once (db/prepared.ts): its claim and its saved answer.
const insertKey = prepared(
  (db, p: { scope: string; key: string; requestHash: string; now: string }) =>
    db
      .insertInto('idempotency_keys')
      .values({
        scope: p.scope,
        key: p.key,
        request_hash: p.requestHash,
        locked_at: p.now,
        response_status: null,
        response_body: null,
        created_at: p.now,
      })
      .onConflict((oc) => oc.doNothing()),
  // Flushed with the attempt its request writes, if it gets that far; lost before, the key is free again for a retry,
  // for a request that charged nothing (README, "Durability"). Its answer (below) is flushed.
  { commit: 'relaxed' },
);
/** A keyed request's answer as saved: its status and the JSON text it sent. */
export interface KeyAnswer {
  scope: string;
  key: string;
  status: number;
  body: string;
}
/** Saves a key's answer; also in the transaction of the work it answers (payments.repository.ts recordOutcome). */
export const saveAnswer = prepared((db, p: KeyAnswer) =>
  db
    .updateTable('idempotency_keys')
    .set({ response_status: p.status, response_body: p.body, locked_at: null })
    .where('scope', '=', p.scope)
    .where('key', '=', p.key),
);

/** What a bodyless answer (204) is saved as: JSON's null, as it was when answers were saved parsed. */
const NO_BODY = 'null';

export type Claim =
  | { kind: 'acquired' }
  /** `body`: the JSON text the first request's answer sent, null when it sent none. */
  | { kind: 'replay'; status: number; body: string | null }
  | { kind: 'in_use' }
  | { kind: 'reused' };

/**
 * Idempotency-Key with Stripe's semantics. The primary key (scope, key) makes the first claim atomic:
 * of two concurrent requests one inserts, the other sees the row (in use, or its saved answer).
 */
export class IdempotencyRepository {
  readonly #db: Db;
  readonly #lockTimeoutMs: number;
  constructor(db: Db, lockTimeoutMs: number = IDEMPOTENCY_LOCK_TIMEOUT_MS) {
    this.#db = db;
    this.#lockTimeoutMs = lockTimeoutMs;
  }

  async claim(scope: string, key: string, requestHash: string, now: Date = new Date()): Promise<Claim> {
    if (await this.#insert(scope, key, requestHash, now)) return { kind: 'acquired' };
    const row = await this.#db
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('scope', '=', scope)
      .where('key', '=', key)
      .executeTakeFirst();
    if (row === undefined) return { kind: 'in_use' }; // released between our insert and read: the caller may retry
    // Only answered keys expire: an unfinished one still pins its attempt's nonce, however old. An expired one starts
    // over (this row only: a concurrent claim that already replaced it is left alone).
    const expired = new Date(now.getTime() - IDEMPOTENCY_RETENTION_MS).toISOString();
    if (row.response_status !== null && row.created_at < expired) {
      await this.#db
        .deleteFrom('idempotency_keys')
        .where('scope', '=', scope)
        .where('key', '=', key)
        .where('created_at', '=', row.created_at)
        .where('response_status', 'is not', null)
        .execute();
      return (await this.#insert(scope, key, requestHash, now)) ? { kind: 'acquired' } : { kind: 'in_use' };
    }
    if (row.request_hash !== requestHash) return { kind: 'reused' };
    if (row.response_status !== null && row.response_body !== null) {
      return { kind: 'replay', status: row.response_status, body: row.response_body === NO_BODY ? null : row.response_body };
    }
    const stale = new Date(now.getTime() - this.#lockTimeoutMs).toISOString();
    if (row.locked_at !== null && row.locked_at >= stale) return { kind: 'in_use' };
    // Take over a dead holder's lock: compare-and-set on the old lock time, so only one taker wins.
    let takeover = this.#db
      .updateTable('idempotency_keys')
      .set({ locked_at: nowIso(now) })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('response_status', 'is', null);
    takeover = row.locked_at === null ? takeover.where('locked_at', 'is', null) : takeover.where('locked_at', '=', row.locked_at);
    const taken = await takeover.executeTakeFirst();
    return Number(taken.numUpdatedRows) === 1 ? { kind: 'acquired' } : { kind: 'in_use' };
  }

  /** Takes the key if no row holds it: the primary key lets one of concurrent claims win. */
  async #insert(scope: string, key: string, requestHash: string, now: Date): Promise<boolean> {
    return (await insertKey.affected(this.#db, { scope, key, requestHash, now: nowIso(now) })) === 1;
  }

  /** Saves the answer sent: its status and its body, the JSON text as sent (null: none), so a replay sends it as is. */
  async complete(scope: string, key: string, status: number, body: string | null): Promise<void> {
    await saveAnswer.execute(this.#db, { scope, key, status, body: body ?? NO_BODY });
  }

  /**
   * Lets a retry run an unfinished request again (unexpected error, gateway unreachable, a passing refusal). The row
   * and its request hash stay: only the same request may take the key again, never one with another nonce.
   */
  async unlock(scope: string, key: string): Promise<void> {
    await this.#db
      .updateTable('idempotency_keys')
      .set({ locked_at: null })
      .where('scope', '=', scope)
      .where('key', '=', key)
      .where('response_status', 'is', null)
      .execute();
  }
}
