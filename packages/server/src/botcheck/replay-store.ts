import type { Db } from '../db/connect.ts';
import type { ReplayStore } from './verifier.ts';

/** Spent bot-check tokens in the database: the primary key makes "first use wins" atomic on both engines. */
export class DbReplayStore implements ReplayStore {
  readonly #db: Db;
  constructor(db: Db) {
    this.#db = db;
  }

  async consume(fingerprint: string, expiresAt: Date): Promise<boolean> {
    const result = await this.#db
      .insertInto('botcheck_uses')
      .values({ fingerprint, expires_at: expiresAt.toISOString() })
      .onConflict((oc) => oc.doNothing())
      .executeTakeFirst();
    const inserted = Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
    // Expired tokens fail verification anyway: forgetting them keeps the table small.
    if (inserted && Math.random() < 0.05)
      await this.#db.deleteFrom('botcheck_uses').where('expires_at', '<', new Date().toISOString()).execute();
    return inserted;
  }
}
