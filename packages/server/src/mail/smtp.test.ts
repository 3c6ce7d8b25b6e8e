import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { sqliteEngine } from '../testing/engines.ts';

// The SMTP delivery against a real SMTP server on this machine (the smtp-server package: what a mail server answers,
// no internet needed): a sign-up's mail reaches it through nodemailer, and the dev outbox then answers no one.

interface Received {
  from: string;
  to: string[];
  data: string;
}

describe('mail through SMTP_URL', () => {
  let app: FastifyInstance;
  let server: SMTPServer;
  let received: Received[];
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    received = [];
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => {
          data += chunk.toString();
        });
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
            data,
          });
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.server.address() as AddressInfo;
    const opened = await sqliteEngine().open();
    const config = testConfig(opened.config);
    app = await buildApp(
      { ...config, mail: { smtpUrl: `smtp://127.0.0.1:${port}`, from: 'Kassa Coffee <shop@kassa.test>' } },
      { database: opened.handle, gateway: null },
    );
    cleanup = async () => {
      await app.close();
      await opened.cleanup();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    };
  });
  afterEach(() => cleanup());

  it("sends a sign-up's mail to the mail server, from MAIL_FROM, with its link; the dev outbox is closed", async () => {
    const asked = await new TestClient(app).post('/api/accounts', {
      email: 'ada@example.com',
      password: 'correct horse battery',
      name: 'Ada',
    });
    expect(asked.statusCode).toBe(202);
    await expect.poll(() => received.length, { timeout: 10_000 }).toBe(1);
    const [mail] = received;
    expect(mail?.from).toBe('shop@kassa.test');
    expect(mail?.to).toEqual(['ada@example.com']);
    expect(mail?.data).toContain('Subject: Finish creating your Kassa account');
    // The text part is quoted-printable (as mail servers expect long lines and '=' to be sent).
    const text = (mail?.data ?? '')
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_all, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
    expect(text).toMatch(/\/verify-email\?token=[A-Za-z0-9_-]{43}/);
    expect((await app.inject({ method: 'GET', url: '/api/dev/outbox?to=ada@example.com' })).statusCode).toBe(404);
  });
});
