import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/connect.ts';
import type { MailRow } from '../db/schema.ts';
import { newId, nowIso } from '../ids.ts';
import type { MailDelivery } from './delivery.ts';

/** A claim older than this belongs to a sender that died: the mail is sent again (at least once). */
const STALE_CLAIM_MS = 5 * 60 * 1000;
/** After this many failed deliveries a mail is left alone (kept, with its last error, for the merchant to see). */
export const MAX_ATTEMPTS = 10;

/**
 * Mail waiting to be sent: requests only write a row (in their own time, whatever the mail server does) and the
 * sender delivers it afterwards, so an answer never waits on, or reveals, what was mailed.
 */
export class MailOutbox {
  readonly #db: Db;
  readonly #delivery: MailDelivery;
  readonly #log: FastifyBaseLogger;

  constructor(db: Db, delivery: MailDelivery, log: FastifyBaseLogger) {
    this.#db = db;
    this.#delivery = delivery;
    this.#log = log;
  }

  get deliveryKind(): MailDelivery['kind'] {
    return this.#delivery.kind;
  }

  /** Writes a mail to send; `db`: the caller's transaction, so the mail is written with what it is about. */
  async enqueue(mail: { to: string; subject: string; body: string }, db: Db = this.#db): Promise<void> {
    await db
      .insertInto('mail_outbox')
      .values({ id: newId('mail'), recipient: mail.to, subject: mail.subject, body: mail.body, created_at: nowIso() })
      .execute();
  }

  /** Sends what waits (oldest first), each mail claimed first so two senders never send it both. Returns how many. */
  async deliverPending(now: Date = new Date()): Promise<number> {
    const waiting = await this.#db
      .selectFrom('mail_outbox')
      .select(['id', 'claimed_at'])
      .where('sent_at', 'is', null)
      .where('attempts', '<', MAX_ATTEMPTS)
      .orderBy('created_at')
      .limit(50)
      .execute();
    let sent = 0;
    for (const { id, claimed_at } of waiting) {
      const mail = await this.#claim(id, claimed_at, now);
      if (mail === undefined) continue;
      try {
        await this.#delivery.deliver({ id: mail.id, to: mail.recipient, subject: mail.subject, body: mail.body });
        await this.#db.updateTable('mail_outbox').set({ sent_at: nowIso() }).where('id', '=', id).execute();
        sent += 1;
      } catch (error) {
        this.#log.warn({ err: error, mailId: id }, 'mail not delivered; will retry');
        await this.#db
          .updateTable('mail_outbox')
          .set((eb) => ({ claimed_at: null, attempts: eb('attempts', '+', 1), last_error: String(error).slice(0, 500) }))
          .where('id', '=', id)
          .execute();
      }
    }
    return sent;
  }

  /** The latest mails to one address, newest first: the dev outbox's page (routes/dev/). */
  recentTo(recipient: string, limit = 20): Promise<MailRow[]> {
    return this.#db
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', '=', recipient)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Compare-and-set on `claimed_at`: only the sender that saw the value it replaces gets the mail. */
  async #claim(id: string, seenClaim: string | null, now: Date): Promise<MailRow | undefined> {
    if (seenClaim !== null && new Date(seenClaim).getTime() > now.getTime() - STALE_CLAIM_MS) return undefined;
    const claimed = await this.#db
      .updateTable('mail_outbox')
      .set({ claimed_at: nowIso(now) })
      .where('id', '=', id)
      .where('sent_at', 'is', null)
      .where((eb) => (seenClaim === null ? eb('claimed_at', 'is', null) : eb('claimed_at', '=', seenClaim)))
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) !== 1) return undefined;
    return this.#db.selectFrom('mail_outbox').selectAll().where('id', '=', id).executeTakeFirst();
  }
}

/**
 * Sends the outbox every `intervalMs` and whenever `kick()` is called (a request just wrote a mail), one round at a
 * time; a kick during a round runs another round after it. `stop()` waits for the round under way.
 */
export function startMailSender(outbox: MailOutbox, log: FastifyBaseLogger, intervalMs: number) {
  let current: Promise<void> | null = null;
  let again = false;
  let stopped = false;
  const round = (): void => {
    if (stopped) return;
    if (current !== null) {
      again = true;
      return;
    }
    current = outbox
      .deliverPending()
      .then(() => undefined)
      .catch((error: unknown) => log.error({ err: error }, 'mail round failed'))
      .finally(() => {
        current = null;
        if (again) {
          again = false;
          round();
        }
      });
  };
  const timer = setInterval(round, intervalMs);
  timer.unref();
  return {
    kick: (): void => {
      setImmediate(round);
    },
    stop: async (): Promise<void> => {
      stopped = true;
      clearInterval(timer);
      await current;
    },
  };
}
