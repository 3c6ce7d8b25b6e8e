import type { FastifyBaseLogger } from 'fastify';

/** One mail as the outbox hands it to a delivery. */
export interface OutgoingMail {
  id: string;
  to: string;
  subject: string;
  body: string;
}

/**
 * How mail leaves the outbox (the port; src/mail/outbox.ts calls it). A delivery that throws leaves the mail in the
 * outbox for the next round.
 */
export interface MailDelivery {
  /** `dev`: nothing leaves this machine; the mails stay readable in the outbox (GET /api/dev/outbox). */
  readonly kind: 'dev';
  deliver(mail: OutgoingMail): Promise<void>;
}

/**
 * The stand-in for SMTP in development and tests (no mail server here): a mail is "delivered" by a log line that
 * names it, and its text is read in the outbox from this machine. The line holds no link: links are credentials.
 */
export class DevMailDelivery implements MailDelivery {
  readonly kind = 'dev';
  readonly #log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.#log = log;
  }

  async deliver(mail: OutgoingMail): Promise<void> {
    this.#log.info(
      { mailId: mail.id, subject: mail.subject },
      'mail kept in the dev outbox (no mail server): read it at /api/dev/outbox',
    );
  }
}
