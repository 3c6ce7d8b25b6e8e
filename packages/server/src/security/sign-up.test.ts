import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import type { MailDelivery, OutgoingMail } from '../mail/delivery.ts';
import { latestMail, outbox, signUpToken, TestClient } from '../testing/client.ts';
import { TEST_PASSWORD_COST, testConfig } from '../testing/config.ts';
import { MIN_PASSWORD_COST, type PasswordCost } from '../accounts/passwords.ts';
import { appPerTest, type OpenedDatabase } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';

// Issue 9: sign-up said whether an email had an account (409 "An account with this email already exists."). It now
// answers alike and finishes by mail; the mail goes to the outbox and, with no mail server here, is read in the dev
// outbox (the dev delivery stands in for SMTP: src/mail/delivery.ts).

const EXISTING = 'shopper@kassa.test'; // the demo shopper
const signUpBody = (email: string) => ({ email, password: 'correct horse battery', name: 'Ada Lovelace' });

/** A delivery of our own port that records what it was handed, and fails when told to (a mail server down). */
class RecordingDelivery implements MailDelivery {
  readonly kind = 'dev';
  readonly delivered: OutgoingMail[] = [];
  failing = false;
  async deliver(mail: OutgoingMail): Promise<void> {
    if (this.failing) throw new Error('mail server refused the connection');
    this.delivered.push(mail);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

describe.each(ENGINES.map((make) => [make().name, make] as const))('sign-up by mail on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  let db: Db;
  let delivery: RecordingDelivery;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  /** The app on a fresh database, hashing passwords at `passwordCost`; sign-ups per IP cut to 3 (20 by default). */
  const appAt = (passwordCost: PasswordCost) => async (opened: OpenedDatabase) => {
    db = opened.handle.db;
    delivery = new RecordingDelivery();
    const config = testConfig(opened.config, null, { passwordCost });
    const signUp = { ...config.velocity.signUp, perIp: { ...config.velocity.signUp.perIp, max: 3 } };
    app = await buildApp(
      { ...config, velocity: { ...config.velocity, signUp } },
      { database: opened.handle, gateway: null, mailDelivery: delivery },
    );
    return app;
  };

  const ask = (email: string, ip = '203.0.113.7'): Promise<LightMyRequestResponse> =>
    new TestClient(app, ip).post('/api/accounts', signUpBody(email));

  // The production cost (24-32 ms a hash), not the tests' (0.2 ms): the timing test must see a hash made on one side
  // only, which the tests' cost would hide in the noise. Only this test pays it.
  describe('at the production password cost', () => {
    appPerTest(engine, appAt(MIN_PASSWORD_COST));

    it('answers a new and an existing email alike: status, headers that matter, body, and time (paired gaps: CPU under 5 ms; wall time under 20 ms where the noise allows)', async () => {
      const fresh = await ask('ada@example.com');
      const taken = await ask(EXISTING);
      for (const response of [fresh, taken]) {
        expect(response.statusCode).toBe(202);
        expect(response.json()).toEqual({ status: 'check_email' });
        expect(response.headers['set-cookie']).toBeUndefined();
      }
      expect(fresh.body).toBe(taken.body);
      expect(fresh.headers['content-type']).toBe(taken.headers['content-type']);
      expect(fresh.headers['content-length']).toBe(taken.headers['content-length']);

      // Timing, in pairs alternated so that the machine's load shifts both of a pair alike; the pairs' differences are
      // compared. Two measures per request:
      // - the process's CPU: the same work on both sides (the password hashed, one mail written; a new email's one more
      //   row is well under a millisecond), steady whatever the load: at a load average of 29 each side took 24-62 ms;
      // - wall time, which also sees waits (a mail sent on one side only): judged while the pairs' own noise (the median
      //   distance of a pair's difference from their median) is under the 20 ms bound. Above it, on a loaded machine
      //   (single requests took 50-1,000 ms at that load), no gap of that size can be told from the noise.
      // The run's other test files share the machine and the PostgreSQL server, so a burst of their work can still land
      // on one side of several pairs: measured up to three times, a steady gap fails every one.
      const measure = async (attempt: number) => {
        const wall: Record<'fresh' | 'taken', number[]> = { fresh: [], taken: [] };
        const cpu: Record<'fresh' | 'taken', number[]> = { fresh: [], taken: [] };
        for (let round = 0; round < 9; round += 1) {
          for (const kind of ['fresh', 'taken'] as const) {
            const [started, cpuBefore] = [performance.now(), process.cpuUsage()];
            await ask(kind === 'fresh' ? `new-${attempt}-${round}@example.com` : EXISTING, `198.51.${attempt}.${round}`);
            wall[kind].push(performance.now() - started);
            const used = process.cpuUsage(cpuBefore);
            cpu[kind].push((used.user + used.system) / 1000);
          }
        }
        const gaps = (times: typeof wall) => times.fresh.map((fresh, i) => fresh - (times.taken[i] ?? 0));
        const wallGaps = gaps(wall);
        const [wallGap, cpuGap] = [median(wallGaps), median(gaps(cpu))];
        const noise = median(wallGaps.map((gap) => Math.abs(gap - wallGap)));
        console.log(
          `sign-up median: new email ${median(wall.fresh).toFixed(1)} ms, existing email ${median(wall.taken).toFixed(1)} ms, ` +
            `paired gap ${wallGap.toFixed(1)} ms (noise ${noise.toFixed(1)} ms); CPU paired gap ${cpuGap.toFixed(1)} ms`,
        );
        // The bounds are fixed, not a share of the medians, which grow with the load: a 40 ms gap put in on purpose
        // passed a 35% share once at a load of 10.
        return Math.abs(cpuGap) < 5 && (noise >= 20 || Math.abs(wallGap) < 20);
      };
      const verdicts: boolean[] = [];
      for (let attempt = 1; attempt <= 3 && !verdicts.includes(true); attempt += 1) verdicts.push(await measure(attempt));
      expect(verdicts).toContain(true);
    });
  });

  describe("at the tests' password cost", () => {
    appPerTest(engine, appAt(TEST_PASSWORD_COST));

    it('mails a new email a link that makes the account once, an existing one a note to sign in; the dev outbox is local', async () => {
      await ask('Ada@Example.com');
      await ask(EXISTING);
      const [toNew] = await outbox(app, 'ada@example.com');
      const [toExisting] = await outbox(app, EXISTING);
      expect(toNew?.subject).toBe('Finish creating your Kassa account');
      expect(toNew?.body).toMatch(/^http:\/\/localhost(:\d+)?\/verify-email\?token=[A-Za-z0-9_-]{43}$/m);
      expect(toExisting?.subject).toBe('You already have a Kassa account');
      expect(toExisting?.body).toMatch(/^http:\/\/localhost(:\d+)?\/sign-in$/m);
      expect(signUpToken(toExisting?.body ?? '')).toBe('');
      // The dev outbox answers this machine only: another address, or a request through a proxy, gets 404.
      const url = '/api/dev/outbox?to=ada@example.com';
      expect((await app.inject({ method: 'GET', url, remoteAddress: '203.0.113.9' })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url, headers: { 'x-forwarded-for': '203.0.113.9' } })).statusCode).toBe(404);
      expect((await app.inject({ method: 'GET', url })).json()).toMatchObject({ mails: [{ to: 'ada@example.com' }] });

      // No account until the link is followed: signing in with the new email fails like any unknown one.
      const visitor = new TestClient(app);
      const early = await visitor.post('/api/session', { email: 'ada@example.com', password: 'correct horse battery' });
      expect(early.json()).toMatchObject({ status: 401, code: 'invalid_credentials' });

      const token = signUpToken(toNew?.body ?? '');
      const confirmed = await visitor.post('/api/accounts/confirmation', { token });
      expect(confirmed.statusCode).toBe(201);
      expect(confirmed.json()).toMatchObject({ account: { email: 'ada@example.com', name: 'Ada Lovelace', role: 'shopper' } });
      expect((await visitor.get('/api/session')).json()).toMatchObject({ account: { email: 'ada@example.com' } });
      const again = await new TestClient(app).post('/api/accounts/confirmation', { token });
      expect(again.json()).toMatchObject({ status: 410, code: 'sign_up_link_invalid' });
      // The token is stored hashed only.
      expect(await db.selectFrom('sign_ups').selectAll().execute()).toEqual([]);

      // The password given at sign-up is the account's.
      const signedIn = await new TestClient(app).post('/api/session', {
        email: 'ada@example.com',
        password: 'correct horse battery',
      });
      expect(signedIn.statusCode).toBe(200);
    });

    it('a link past its 24 hours, made up, or of an email signed up since makes nothing', async () => {
      await ask('late@example.com');
      const token = signUpToken((await latestMail(app, 'late@example.com'))?.body ?? '');
      const stored = await db.selectFrom('sign_ups').select('token_hash').executeTakeFirstOrThrow();
      expect(stored.token_hash).not.toContain(token);
      await db
        .updateTable('sign_ups')
        .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
        .execute();
      const client = new TestClient(app);
      expect((await client.post('/api/accounts/confirmation', { token })).json()).toMatchObject({ code: 'sign_up_link_invalid' });
      expect((await client.post('/api/accounts/confirmation', { token: 'made-up' })).json()).toMatchObject({
        code: 'sign_up_link_invalid',
      });
      expect(await db.selectFrom('accounts').select('email').where('email', '=', 'late@example.com').execute()).toEqual([]);

      // Two sign-ups of one new email: the first link followed makes the account, the other then makes nothing.
      await ask('twice@example.com');
      await ask('twice@example.com');
      const tokens = (await outbox(app, 'twice@example.com')).map((mail) => signUpToken(mail.body));
      expect(tokens).toHaveLength(2);
      expect((await new TestClient(app).post('/api/accounts/confirmation', { token: tokens[1] })).statusCode).toBe(201);
      expect((await new TestClient(app).post('/api/accounts/confirmation', { token: tokens[0] })).json()).toMatchObject({
        code: 'sign_up_link_invalid',
      });
    });

    it('mails one address at most 3 times an hour, answering the 4th alike; sign-ups per IP are limited (here 3)', async () => {
      const answers: string[] = [];
      for (let i = 0; i < 4; i += 1) answers.push((await ask(EXISTING, `192.0.2.${i}`)).body);
      expect(new Set(answers)).toEqual(new Set([JSON.stringify({ status: 'check_email' })]));
      expect(await outbox(app, EXISTING)).toHaveLength(3);

      const statuses: number[] = [];
      for (let i = 0; i < 4; i += 1) statuses.push((await ask(`ip-${i}@example.com`, '192.0.2.200')).statusCode);
      expect(statuses).toEqual([202, 202, 202, 429]);
    });

    it('sends each mail through the delivery once, and again after the delivery failed', async () => {
      delivery.failing = true;
      await ask('retry@example.com');
      await expect.poll(async () => (await db.selectFrom('mail_outbox').select('attempts').executeTakeFirst())?.attempts).toBe(1);
      expect(delivery.delivered).toEqual([]);
      delivery.failing = false;
      await ask(EXISTING); // wakes the sender, which sends both
      await expect.poll(() => delivery.delivered.length).toBe(2);
      expect(delivery.delivered.map((mail) => mail.to).sort()).toEqual(['retry@example.com', EXISTING]);
      const rows = await db.selectFrom('mail_outbox').select(['sent_at', 'last_error']).execute();
      expect(rows.every((row) => row.sent_at !== null)).toBe(true);
      expect((await outbox(app, 'retry@example.com'))[0]?.sentAt).not.toBeNull();
    });
  });
});
