import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.ts';
import type { SessionRow } from '../db/schema.ts';
import { prepared } from '../db/prepared.ts';
import { newId, nowIso } from '../ids.ts';

export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;

// Every request with a session cookie reads its session: compiled once (db/prepared.ts).
const findLiveSession = prepared((db, p: { tokenHash: string; now: string }) =>
  db.selectFrom('sessions').selectAll().where('token_hash', '=', p.tokenHash).where('expires_at', '>', p.now),
);

/** Server-side sessions. The cookie holds a random token; the database holds only its HMAC. */
export class SessionsRepository {
  readonly #db: Db;
  readonly #secret: string;

  constructor(db: Db, secret: string) {
    this.#db = db;
    this.#secret = secret;
  }

  #hash(token: string): string {
    return createHmac('sha256', this.#secret).update(token).digest('hex');
  }

  async create(accountId: string | null): Promise<{ session: SessionRow; token: string }> {
    const token = randomBytes(32).toString('base64url');
    const now = new Date();
    const session: SessionRow = {
      id: newId('ses'),
      token_hash: this.#hash(token),
      account_id: accountId,
      created_at: nowIso(now),
      expires_at: nowIso(new Date(now.getTime() + SESSION_TTL_MS)),
    };
    await this.#db.insertInto('sessions').values(session).execute();
    return { session, token };
  }

  async findByToken(token: string): Promise<SessionRow | undefined> {
    return findLiveSession.takeFirst(this.#db, { tokenHash: this.#hash(token), now: nowIso() });
  }

  async delete(sessionId: string): Promise<void> {
    await this.#db.deleteFrom('sessions').where('id', '=', sessionId).execute();
  }
}
