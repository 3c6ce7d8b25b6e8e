import type { Db } from '../db/connect.ts';
import { prepared } from '../db/prepared.ts';
import type { ReplayStore } from './verifier.ts';

const spend = prepared(
  (db, p: { fingerprint: string; expiresAt: string }) =>
    db
      .insertInto('botcheck_uses')
      .values({ fingerprint: p.fingerprint, expires_at: p.expiresAt })
      .onConflict((oc) => oc.doNothing()),
  // Flushed with the payment's attempt when its request gets that far; a spend lost in a power cut is a token that can
  // be spent once more before it expires, with no charge made for the first (README, "Durability").
  { commit: 'relaxed' },
);

/** Spent bot-check tokens in the database: the primary key makes "first use wins" atomic on both engines. */
export class DbReplayStore implements ReplayStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async consume(fingerprint: string, expiresAt: Date): Promise<boolean> {
    // Expired tokens fail verification anyway: the sweeper (src/jobs/sweeper.ts) forgets them.
    return (await spend.affected(this.#db, { fingerprint, expiresAt: expiresAt.toISOString() })) === 1;
  }
}
