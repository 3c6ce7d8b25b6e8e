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
    // Expired tokens fail verification anyway: the sweeper (src/jobs/sweeper.ts) forgets them.
    return Number(result.numInsertedOrUpdatedRows ?? 0n) === 1;
  }
}
