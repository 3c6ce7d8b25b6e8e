import type { FastifyBaseLogger } from 'fastify';
import type { Transporter } from 'nodemailer';

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
  /**
   * `dev`: nothing leaves this machine; the mails stay readable in the outbox (GET /api/dev/outbox). `smtp`: sent to
   * the mail server of SMTP_URL (the outbox then answers no one).
   */
  readonly kind: 'dev' | 'smtp';
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

/**
 * Sends through a mail server (SMTP_URL: `smtp://` with STARTTLS when offered, or `smtps://`), as plain text.
 * nodemailer is loaded on the first mail, so a server without SMTP_URL never loads it.
 */
export class SmtpMailDelivery implements MailDelivery {
  readonly kind = 'smtp';
  readonly #url: string;
  readonly #from: string;
  #transport: Promise<Transporter> | undefined;

  constructor(url: string, from: string) {
    this.#url = url;
    this.#from = from;
  }

  async deliver(mail: OutgoingMail): Promise<void> {
    this.#transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(this.#url));
    const transport = await this.#transport;
    await transport.sendMail({ from: this.#from, to: mail.to, subject: mail.subject, text: mail.body });
  }
}
