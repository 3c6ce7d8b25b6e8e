import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { newId } from '../ids.ts';
import { recordDispute } from './disputes.query.ts';
import { paymentsCsv } from './payments.csv.ts';
import { buildApp } from '../index.ts';
import { recordPayment } from '../testing/admin.ts';
import type { RecordedPayment } from '../testing/admin.ts';
import { DEMO_ADMIN, DEMO_SHOPPER, TestClient, signedIn } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';

/** The dashboard's reads that need no gateway: sorting, CSV export, overview, customers, disputes, the timeline. */
describe.each(ENGINES.map((make) => [make().name, make] as const))('the dashboard API on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  let db: Db;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  appPerTest(engine, async (opened) => {
    db = opened.handle.db;
    app = await buildApp(testConfig(opened.config), { database: opened.handle, gateway: null });
    return app;
  });

  const admin = () => signedIn(app, DEMO_ADMIN);
  const payment = (client: TestClient, options: RecordedPayment) => recordPayment(db, client, options);
  async function newShopper(email: string, name: string): Promise<TestClient> {
    const client = new TestClient(app);
    expect((await client.signUp({ email, password: `${name} password`, name })).statusCode).toBe(201);
    return client;
  }

  it('sorts by amount and by age, each paged by cursor without repeating or skipping a payment', async () => {
    const guest = new TestClient(app);
    const ids = {
      small: await payment(guest, { status: 'succeeded', minutesAgo: 30, quantity: 1 }),
      big: await payment(guest, { status: 'succeeded', minutesAgo: 20, quantity: 3 }),
      smallNewer: await payment(guest, { status: 'succeeded', minutesAgo: 10, quantity: 1 }),
      middle: await payment(guest, { status: 'declined', minutesAgo: 5, quantity: 2 }),
    };
    const client = await admin();
    async function all(sort: string): Promise<string[]> {
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = `?sort=${sort}&limit=1${cursor === null ? '' : `&cursor=${cursor}`}`;
        const page = (await client.get(`/api/admin/payments${query}`)).json<{
          payments: { id: string }[];
          nextCursor: string | null;
        }>();
        seen.push(...page.payments.map((p) => p.id));
        cursor = page.nextCursor;
      } while (cursor !== null);
      return seen;
    }
    expect(await all('amount_desc')).toEqual([ids.big, ids.middle, ids.smallNewer, ids.small]);
    expect(await all('amount_asc')).toEqual([ids.small, ids.smallNewer, ids.middle, ids.big]);
    expect(await all('oldest')).toEqual([ids.small, ids.big, ids.smallNewer, ids.middle]);
    expect(await all('newest')).toEqual([ids.middle, ids.smallNewer, ids.big, ids.small]);
  });

  it('exports the filtered payments as CSV, every page, with formula-like cells defused, and audits the export', async () => {
    const mallory = await newShopper('-cmd@example.com', 'Mallory');
    const guest = new TestClient(app);
    await payment(guest, { status: 'declined', minutesAgo: 9, declineText: 'Do Not Honor' });
    const paid = await payment(mallory, { status: 'succeeded', minutesAgo: 8, lastFour: '4242' });
    for (let index = 0; index < 3; index += 1) await payment(guest, { status: 'succeeded', minutesAgo: 7 - index });
    const client = await admin();

    const response = await client.get('/api/admin/payments/export?status=succeeded&sort=oldest');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toMatch(/^attachment; filename="payments-\d{4}-\d{2}-\d{2}\.csv"$/);
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,created_at,status,amount,currency,order_number,customer_email,payment_method_type,card_brand,card_last_four,transaction_id,settlement_status,decline_reason,processor_response',
    );
    expect(lines).toHaveLength(5);
    expect(lines[1]?.split(',').slice(0, 10)).toEqual([
      paid,
      expect.any(String),
      'succeeded',
      '12.00',
      'EUR',
      expect.stringMatching(/^\d+$/),
      "'-cmd@example.com",
      'credit_card',
      'Visa',
      '4242',
    ]);

    // Read two rows at a time, the export is the same: every page, once.
    let paged = '';
    for await (const chunk of paymentsCsv(db, { status: 'succeeded', sort: 'oldest' }, 2)) paged += chunk;
    expect(paged).toBe(response.body);

    const declined = (await client.get('/api/admin/payments/export?status=declined')).body.trimEnd().split('\r\n');
    expect(declined[1]).toMatch(/,declined,12\.00,EUR,\d+,,credit_card,,,,,processor_declined,Do Not Honor$/);
    expect((await client.get('/api/admin/payments/export?cardLastFour=12')).json()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'cardLastFour' }],
    });
    const actions = await db.selectFrom('admin_audit_log').select('action').where('action', '=', 'payments.export').execute();
    expect(actions).toHaveLength(3);
  });

  it('sums the overview per day: volume without voids, approvals, declines by reason and refunds', async () => {
    const guest = new TestClient(app);
    const day = 24 * 60;
    const paidToday = await payment(guest, { status: 'succeeded', minutesAgo: 1, quantity: 2 });
    await payment(guest, { status: 'succeeded', minutesAgo: 2 * day });
    const voided = await payment(guest, { status: 'succeeded', minutesAgo: 2 * day + 1 });
    await db.updateTable('payments').set({ status: 'voided' }).where('id', '=', voided).execute();
    await payment(guest, { status: 'declined', minutesAgo: 2, declineText: 'Do Not Honor' });
    await payment(guest, { status: 'declined', minutesAgo: 3, declineText: 'Do Not Honor' });
    await payment(guest, { status: 'declined', minutesAgo: 2 * day, declineText: 'Insufficient Funds' });
    await payment(guest, { status: 'pending', minutesAgo: 4 });
    await payment(guest, { status: 'succeeded', minutesAgo: 40 * day });
    const adminId = (
      await db.selectFrom('accounts').select('id').where('email', '=', 'admin@kassa.test').executeTakeFirstOrThrow()
    ).id;
    await db
      .insertInto('refunds')
      .values({
        id: newId('ref'),
        payment_id: paidToday,
        kind: 'refund',
        amount: 500,
        currency: 'EUR',
        transaction_id: 'cr_1',
        idempotency_ref: 'k',
        actor_account_id: adminId,
        created_at: new Date().toISOString(),
      })
      .execute();
    const client = await admin();

    const week = (await client.get('/api/admin/overview?days=7')).json<{
      days: string[];
      volume: { currency: string; amounts: number[]; total: number }[];
      refunds: { currency: string; amounts: number[]; total: number }[];
      succeeded: number[];
      declined: number[];
      declineReasons: { reason: string; counts: number[]; total: number }[];
      approvalRate: number;
    }>();
    expect(week.days).toHaveLength(7);
    expect(week.days.at(-1)).toBe(new Date().toISOString().slice(0, 10));
    const twoDaysAgo = week.days.indexOf(new Date(Date.now() - 2 * day * 60_000).toISOString().slice(0, 10));
    const today = 6;
    // Minutes-ago rows may cross midnight (UTC): compare sums where a row could fall on either side.
    expect(week.volume).toEqual([{ currency: 'EUR', amounts: expect.any(Array), total: 2400 + 1200 }]);
    expect(week.volume[0]?.amounts[twoDaysAgo]).toBe(1200);
    expect(week.refunds).toEqual([{ currency: 'EUR', amounts: expect.any(Array), total: 500 }]);
    expect(week.succeeded.reduce((a, b) => a + b, 0)).toBe(3);
    expect(week.succeeded[twoDaysAgo]).toBe(2);
    expect(week.declined.reduce((a, b) => a + b, 0)).toBe(3);
    expect(week.declineReasons.map((entry) => [entry.reason, entry.total])).toEqual([
      ['Do Not Honor', 2],
      ['Insufficient Funds', 1],
    ]);
    expect(week.declineReasons[1]?.counts[twoDaysAgo]).toBe(1);
    expect(week.approvalRate).toBeCloseTo(3 / 6);
    expect(week.days[today]).toBe(week.days.at(-1));

    const quarter = (await client.get('/api/admin/overview?days=90')).json<{ days: string[]; volume: { total: number }[] }>();
    expect([quarter.days.length, quarter.volume[0]?.total]).toEqual([90, 2400 + 1200 + 1200]);
    expect((await client.get('/api/admin/overview?days=12')).json()).toMatchObject({
      status: 400,
      code: 'validation_failed',
      errors: [{ field: 'days' }],
    });
  });

  it('lists customers newest first with their orders and spending, by email prefix, paged', async () => {
    const ada = await newShopper('ada@example.com', 'Ada');
    await payment(ada, { status: 'succeeded', minutesAgo: 3, quantity: 2 });
    await payment(ada, { status: 'declined', minutesAgo: 2 });
    const grace = await newShopper('grace@example.com', 'Grace');
    await payment(grace, { status: 'succeeded', minutesAgo: 1 });
    const client = await admin();

    type Page = {
      customers: {
        email: string;
        orders: number;
        payments: number;
        spent: { amount: number; currency: string }[];
        lastPaymentAt: string | null;
      }[];
      nextCursor: string | null;
    };
    const first = (await client.get('/api/admin/customers?limit=2')).json<Page>();
    expect(first.customers.map((c) => [c.email, c.orders, c.payments, c.spent])).toEqual([
      ['grace@example.com', 1, 1, [{ amount: 1200, currency: 'EUR' }]],
      ['ada@example.com', 2, 1, [{ amount: 2400, currency: 'EUR' }]],
    ]);
    // The demo shopper (seeded first) is on the next page; the admin is not a customer.
    const rest = (await client.get(`/api/admin/customers?limit=2&cursor=${first.nextCursor}`)).json<Page>();
    expect(rest.customers.map((c) => [c.email, c.payments, c.spent, c.lastPaymentAt])).toEqual([
      ['shopper@kassa.test', 0, [], null],
    ]);
    expect(rest.nextCursor).toBeNull();
    expect((await client.get('/api/admin/customers?email=ADA')).json<Page>().customers.map((c) => c.email)).toEqual([
      'ada@example.com',
    ]);
    // A wildcard typed is a character, not a pattern.
    expect((await client.get('/api/admin/customers?email=%25')).json<Page>().customers).toEqual([]);
  });

  it("lists disputes with the payment they dispute, and shows them and the webhooks on the payment's timeline by when the gateway sent them", async () => {
    const shopper = await signedIn(app, DEMO_SHOPPER);
    const paymentId = await payment(shopper, { status: 'succeeded', minutesAgo: 10 });
    const at = (minutesAgo: number) => new Date(Date.now() - minutesAgo * 60_000).toISOString();
    const [sentAt, receivedAt] = [at(9), at(7)];
    await db
      .insertInto('disputes')
      .values([
        {
          id: 'dp_old',
          transaction_id: `t_${paymentId}`,
          status: 'won',
          kind: 'chargeback',
          reason: 'fraud',
          amount: 1200,
          currency: 'EUR',
          notified_at: at(8),
        },
        {
          id: 'dp_elsewhere',
          transaction_id: 't_panel',
          status: 'open',
          kind: 'chargeback',
          reason: 'duplicate',
          amount: 300,
          currency: 'EUR',
          notified_at: at(6),
        },
      ])
      .execute();
    await db
      .insertInto('webhook_notifications')
      .values([
        // Sent 9 minutes ago, received 7 minutes ago (a retry): it tells of a settlement that came before the dispute's win.
        { id: 'whn_1', kind: 'transaction_settled', subject_id: `t_${paymentId}`, notified_at: sentAt, received_at: receivedAt },
        { id: 'whn_2', kind: 'dispute_won', subject_id: 'dp_old', notified_at: at(8), received_at: at(8) },
        { id: 'whn_3', kind: 'dispute_opened', subject_id: 'dp_elsewhere', notified_at: at(6), received_at: at(6) },
      ])
      .execute();
    const client = await admin();

    type Page = {
      disputes: {
        id: string;
        status: string;
        payment: { id: string; orderNumber: number } | null;
        customer: { email: string } | null;
      }[];
      nextCursor: string | null;
    };
    const page = (await client.get('/api/admin/disputes')).json<Page>();
    expect(page.disputes.map((d) => [d.id, d.status, d.payment?.id ?? null, d.customer?.email ?? null])).toEqual([
      ['dp_elsewhere', 'open', null, null],
      ['dp_old', 'won', paymentId, 'shopper@kassa.test'],
    ]);
    expect((await client.get('/api/admin/disputes?status=won')).json<Page>().disputes.map((d) => d.id)).toEqual(['dp_old']);
    const paged = (await client.get('/api/admin/disputes?limit=1')).json<Page>();
    expect(
      (await client.get(`/api/admin/disputes?limit=1&cursor=${paged.nextCursor}`)).json<Page>().disputes.map((d) => d.id),
    ).toEqual(['dp_old']);

    const detail = (await client.get(`/api/admin/payments/${paymentId}`)).json<{
      timeline: {
        gatewayAnswered: boolean;
        events: { type: string; kind?: string; status?: string; at: string; receivedAt?: string }[];
      };
      disputes: { id: string }[];
    }>();
    expect(detail.disputes.map((d) => d.id)).toEqual(['dp_old']);
    // No gateway configured: the product's records only, and the page says the gateway's statuses are missing.
    expect(detail.timeline.gatewayAnswered).toBe(false);
    expect(detail.timeline.events.map((e) => [e.type, e.kind ?? e.status])).toEqual([
      ['attempt', 'succeeded'],
      ['webhook', 'transaction_settled'],
      ['webhook', 'dispute_won'],
    ]);
    expect(detail.timeline.events[1]).toMatchObject({ at: sentAt, receivedAt });
  });

  it("names a dispute's payment even when the dispute's webhook came before the sale's transaction id was written", async () => {
    const shopper = await signedIn(app, DEMO_SHOPPER);
    const paymentId = await payment(shopper, { status: 'succeeded', minutesAgo: 1 });
    // The sale's answer not written yet when the webhook comes: the payment has no transaction id.
    await db.updateTable('payments').set({ transaction_id: null }).where('id', '=', paymentId).execute();
    const dispute = { id: 'dp_early', status: 'open', kind: 'chargeback', reason: 'fraud', amount: '12.00', currency: 'EUR' };
    await recordDispute(db, { ...dispute, transactionId: `t_${paymentId}` }, new Date().toISOString());
    await db
      .updateTable('payments')
      .set({ transaction_id: `t_${paymentId}` })
      .where('id', '=', paymentId)
      .execute();

    const client = await admin();
    const listed = (await client.get('/api/admin/disputes')).json<{
      disputes: { id: string; payment: { id: string } | null }[];
    }>();
    expect(listed.disputes.map((d) => [d.id, d.payment?.id ?? null])).toEqual([['dp_early', paymentId]]);
    const detail = (await client.get(`/api/admin/payments/${paymentId}`)).json<{ disputes: { id: string }[] }>();
    expect(detail.disputes.map((d) => d.id)).toEqual(['dp_early']);
  });

  it('keeps every new dashboard route from a shopper (403) and a visitor (401)', async () => {
    const shopper = await signedIn(app, DEMO_SHOPPER);
    const visitor = new TestClient(app);
    for (const url of [
      '/api/admin/overview',
      '/api/admin/payments/export',
      '/api/admin/customers',
      '/api/admin/disputes',
      '/api/admin/subscriptions',
    ]) {
      expect((await shopper.get(url)).json(), url).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await visitor.get(url)).json(), url).toMatchObject({ status: 401, code: 'not_signed_in' });
    }
  });
});
