import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { buildApp } from '../index.ts';
import { recordPayment } from '../testing/admin.ts';
import type { RecordedPayment } from '../testing/admin.ts';
import { DEMO_ADMIN, DEMO_SHOPPER, TestClient, signedIn } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';

interface Page {
  payments: {
    id: string;
    order: { number: number };
    status: string;
    amount: { amount: number };
    customer: { email: string } | null;
    card: { lastFour: string } | null;
  }[];
  nextCursor: string | null;
}

describe.each(ENGINES.map((make) => [make().name, make] as const))('the admin API on %s', (_name, make) => {
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

  it('answers 401 to a visitor and 403 to a shopper on every admin route, and audits neither', async () => {
    const paymentId = await payment(await signedIn(app, DEMO_SHOPPER), {
      status: 'succeeded',
      minutesAgo: 1,
    });
    const document = (await app.inject({ method: 'GET', url: '/api/openapi.json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const routes = Object.entries(document.paths)
      .filter(([path]) => path.startsWith('/api/admin/'))
      .flatMap(([path, methods]) =>
        Object.keys(methods).map(
          (method) =>
            [
              method.toUpperCase() as 'GET' | 'POST' | 'DELETE',
              path.replace('{id}', paymentId).replace('{evidenceId}', 'ev1'),
            ] as const,
        ),
      );
    expect(routes.length).toBeGreaterThanOrEqual(2);
    const shopper = await signedIn(app, DEMO_SHOPPER);
    const visitor = new TestClient(app);
    for (const [method, url] of routes) {
      // A mutating route gets an empty body and a key: refused before either is read.
      const ask = (client: TestClient) =>
        method === 'GET' ? client.get(url) : client.request(method, url, {}, { 'idempotency-key': `k-${url}` });
      expect((await ask(shopper)).json(), url).toMatchObject({ status: 403, code: 'forbidden' });
      expect((await ask(visitor)).json(), url).toMatchObject({ status: 401, code: 'not_signed_in' });
    }
    expect(await db.selectFrom('admin_audit_log').selectAll().execute()).toEqual([]);
  });

  it('lists payments newest first with each filter, paged by cursor', async () => {
    const ada = new TestClient(app);
    await ada.signUp({ email: 'ada@example.com', password: 'ada password', name: 'Ada' });
    const guest = new TestClient(app);
    const ids = {
      adaOld: await payment(ada, { status: 'succeeded', lastFour: '4242', minutesAgo: 50 }),
      adaDeclined: await payment(ada, { status: 'declined', minutesAgo: 40 }),
      guestBig: await payment(guest, { status: 'succeeded', lastFour: '1111', minutesAgo: 30, quantity: 5 }),
      guestNew: await payment(guest, { status: 'succeeded', lastFour: '4242', minutesAgo: 10 }),
    };
    const client = await admin();
    const list = async (query: string) => {
      const response = await client.get(`/api/admin/payments${query}`);
      expect(response.statusCode, query).toBe(200);
      return response.json<Page>();
    };
    const idsOf = (page: Page) => page.payments.map((p) => p.id);

    expect(idsOf(await list(''))).toEqual([ids.guestNew, ids.guestBig, ids.adaDeclined, ids.adaOld]);
    expect(idsOf(await list('?status=declined'))).toEqual([ids.adaDeclined]);
    expect(idsOf(await list('?cardLastFour=4242'))).toEqual([ids.guestNew, ids.adaOld]);
    expect(idsOf(await list('?customerEmail=ADA@example.com'))).toEqual([ids.adaDeclined, ids.adaOld]);
    expect(idsOf(await list('?minAmount=2000'))).toEqual([ids.guestBig]);
    expect(idsOf(await list('?maxAmount=1200&paymentMethodType=credit_card'))).toEqual([
      ids.guestNew,
      ids.adaDeclined,
      ids.adaOld,
    ]);
    const from = new Date(Date.now() - 45 * 60_000).toISOString();
    const to = new Date(Date.now() - 20 * 60_000).toISOString();
    expect(idsOf(await list(`?from=${from}&to=${to}`))).toEqual([ids.guestBig, ids.adaDeclined]);
    expect((await list('?customerEmail=ada@example.com')).payments[0]?.customer).toEqual({ email: 'ada@example.com' });
    const bigOrder = (await list('?minAmount=2000')).payments[0]?.order.number ?? 0;
    expect(idsOf(await list(`?orderNumber=${bigOrder}`))).toEqual([ids.guestBig]);
    expect((await client.get('/api/admin/payments?orderNumber=ord_x')).json()).toMatchObject({
      status: 400,
      errors: [{ field: 'orderNumber' }],
    });

    // Pages of two: every payment once, in order, then no cursor.
    const first = await list('?limit=2');
    expect(idsOf(first)).toEqual([ids.guestNew, ids.guestBig]);
    const second = await list(`?limit=2&cursor=${first.nextCursor}`);
    expect(idsOf(second)).toEqual([ids.adaDeclined, ids.adaOld]);
    expect(second.nextCursor).toBeNull();
  });

  it('names the bad filter of a malformed list request', async () => {
    const client = await admin();
    for (const [query, field] of [
      ['?cursor=not-ours', 'cursor'],
      ['?cardLastFour=12', 'cardLastFour'],
      ['?from=yesterday', 'from'],
      ['?limit=1000', 'limit'],
      ['?status=lost', 'status'],
    ]) {
      const response = await client.get(`/api/admin/payments${query}`);
      expect(response.json(), query).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field }] });
    }
  });

  it('refuses an id holding a NUL with a problem+json 400, and audits the attempt with the NUL replaced', async () => {
    // Issue 10's fuzz: the audit entry kept the raw id, PostgreSQL refused it in the answer's hook, and the answer was
    // Fastify's plain JSON naming the database's error.
    const client = await admin();
    const response = await client.get('/api/admin/disputes/dp_%00x');
    expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(response.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ code: 'invalid_string' }] });
    const log = await db.selectFrom('admin_audit_log').select(['action', 'target_id', 'status']).execute();
    expect(log).toEqual([{ action: 'disputes.read', target_id: 'dp_\uFFFDx', status: 400 }]);
  });

  it('answers problem+json when the audit entry cannot be written: a refusal as it was, an answer it would not record as a 500', async () => {
    const client = await admin();
    await sql`drop table admin_audit_log`.execute(db); // the audit's writes fail from here on
    const refused = await client.get('/api/admin/payments?limit=1000');
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'limit' }] });
    // An answer the audit could not record is not given: the admin sees a failure, not an unrecorded success.
    const read = await client.get('/api/admin/payments');
    expect(read.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(read.json()).toMatchObject({ status: 500, code: 'internal_error' });
  });

  it('lists the audit log newest first: the changes alone by default, with who and the answer; every request with scope=all, paged', async () => {
    const client = await admin();
    await client.get('/api/admin/payments');
    // No gateway here: each change is refused (503), and still in the log.
    const key = { 'idempotency-key': 'activity-refund' };
    expect((await client.post('/api/admin/payments/pay_one/refund', {}, key)).statusCode).toBe(503);
    expect((await client.post('/api/admin/subscriptions/sub_one/cancel', {}, { 'idempotency-key': 'a2' })).statusCode).toBe(503);

    type Activity = {
      entries: { action: string; targetId: string | null; status: number; actorEmail: string | null; replayed: boolean }[];
      nextCursor: string | null;
    };
    const changes = (await client.get('/api/admin/activity')).json<Activity>();
    expect(changes).toEqual({
      entries: [
        expect.objectContaining({
          action: 'subscriptions.cancel',
          targetId: 'sub_one',
          status: 503,
          actorEmail: 'admin@kassa.test',
        }),
        expect.objectContaining({ action: 'payments.refund', targetId: 'pay_one', status: 503, replayed: false }),
      ],
      nextCursor: null,
    });

    const first = (await client.get('/api/admin/activity?scope=all&limit=3')).json<Activity>();
    expect(first.entries.map((entry) => entry.action)).toEqual(['activity.list', 'subscriptions.cancel', 'payments.refund']);
    const rest = (await client.get(`/api/admin/activity?scope=all&limit=3&cursor=${first.nextCursor}`)).json<Activity>();
    expect(rest).toEqual({ entries: [expect.objectContaining({ action: 'payments.list', targetId: null })], nextCursor: null });
    expect((await client.get('/api/admin/activity?scope=mine')).json()).toMatchObject({ status: 400, code: 'validation_failed' });
  });

  it("shows a payment with its order's attempts and what admins did with it, and audits every admin request", async () => {
    const shopper = await signedIn(app, DEMO_SHOPPER);
    const paymentId = await payment(shopper, { status: 'succeeded', lastFour: '4242', minutesAgo: 5 });
    const client = await admin();
    await client.get('/api/admin/payments?cardLastFour=4242');
    const first = await client.get(`/api/admin/payments/${paymentId}`);
    expect(first.json()).toMatchObject({
      payment: {
        id: paymentId,
        status: 'succeeded',
        card: { brand: 'Visa', lastFour: '4242' },
        customer: { email: 'shopper@kassa.test' },
        paymentMethodType: 'credit_card',
      },
      attempts: [{ id: paymentId }],
      adminActions: [],
    });
    const again = await client.get(`/api/admin/payments/${paymentId}`);
    expect(again.json()).toMatchObject({ adminActions: [{ action: 'payments.read', status: 200 }] });
    expect((await client.get('/api/admin/payments/pay_nope')).json()).toMatchObject({ status: 404, code: 'payment_not_found' });

    const adminId = (
      await db.selectFrom('accounts').select('id').where('email', '=', 'admin@kassa.test').executeTakeFirstOrThrow()
    ).id;
    const log = await db.selectFrom('admin_audit_log').selectAll().orderBy('created_at').orderBy('id').execute();
    expect(log.map((entry) => [entry.actor_account_id, entry.action, entry.target_id, entry.status])).toEqual([
      [adminId, 'payments.list', null, 200],
      [adminId, 'payments.read', paymentId, 200],
      [adminId, 'payments.read', paymentId, 200],
      [adminId, 'payments.read', 'pay_nope', 404],
    ]);
    // The filters as the route read them, defaults included.
    expect(JSON.parse(log[0]?.detail ?? 'null')).toEqual({ cardLastFour: '4242', limit: 25, sort: 'newest' });
  });
});
