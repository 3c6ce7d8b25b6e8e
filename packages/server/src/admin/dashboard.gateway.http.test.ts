import { randomUUID } from 'node:crypto';
import type braintree from 'braintree';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { sendAttempt } from '../payments/pay-order.ts';
import { pendingAttempt } from '../testing/admin.ts';
import { insertPendingPayment } from '../payments/payments.repository.ts';
import { DEMO_ADMIN, DEMO_SHOPPER, type TestClient, signedIn } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';

interface Timeline {
  gatewayStatus: string | null;
  gatewayAnswered: boolean;
  events: { type: string; status?: string; kind?: string; amount?: { amount: number } | null }[];
}

/** What the dashboard asks of the gateway itself: a payment's status history and the subscriptions it bills. */
const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'the dashboard API on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let sdk: braintree.BraintreeGateway;
    let app: FastifyInstance;
    let db: Db;

    beforeAll(async () => {
      await engine.setup();
      sdk = createBraintreeClient(sandbox.gateway);
    });
    afterAll(async () => {
      await engine.teardown();
    });
    appPerTest(engine, async (opened) => {
      db = opened.handle.db;
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
      return app;
    });

    const admin = () => signedIn(app, DEMO_ADMIN);

    it("shows a payment's timeline: the attempt, every gateway status, the partial refund and the settlement webhook, in order", async () => {
      const pending = await pendingAttempt(db, await signedIn(app, DEMO_SHOPPER), 2);
      const paid = await sendAttempt({ db, gateway: new BraintreeGatewayAdapter(sdk) }, pending, { resend: false });
      const transactionId = paid.transaction_id ?? '';
      await sdk.testing.settle(transactionId);
      // The gateway's own notification, through the real webhook route.
      const notification = await sdk.webhookTesting.sampleNotification('transaction_settled', transactionId);
      const posted = await app.inject({
        method: 'POST',
        url: '/api/gateway/webhooks',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ bt_signature: notification.bt_signature, bt_payload: notification.bt_payload }).toString(),
      });
      expect(posted.json()).toEqual({ status: 'processed' });
      const client = await admin();
      expect(
        (await client.post(`/api/admin/payments/${paid.id}/refund`, { amount: 700 }, { 'idempotency-key': randomUUID() }))
          .statusCode,
      ).toBe(201);

      const detail = (await client.get(`/api/admin/payments/${paid.id}`)).json<{
        payment: { status: string; settlementStatus: string | null };
        timeline: Timeline;
      }>();
      expect(detail.payment).toMatchObject({ status: 'partially_refunded', settlementStatus: 'settled' });
      expect(detail.timeline).toMatchObject({ gatewayStatus: 'settled', gatewayAnswered: true });
      const events = detail.timeline.events.map((event) => [event.type, event.status ?? event.kind ?? event.amount?.amount]);
      expect(events.slice(0, 1)).toEqual([['attempt', 'partially_refunded']]);
      const statuses = events.filter(([type]) => type === 'gateway_status').map(([, status]) => status);
      expect(statuses).toEqual(
        ['authorized', 'submitted_for_settlement', 'settling', 'settled'].filter((status) => statuses.includes(status)),
      );
      expect(statuses).toEqual(expect.arrayContaining(['authorized', 'settled']));
      expect(events).toEqual(
        expect.arrayContaining([
          ['webhook', 'transaction_settled'],
          ['refund', 700],
        ]),
      );
      // The refund came after the settlement it needed.
      const index = (type: string) => events.findIndex(([kind]) => kind === type);
      expect(index('refund')).toBeGreaterThan(
        events.findIndex(([type, status]) => type === 'gateway_status' && status === 'settled'),
      );
      expect(
        detail.timeline.events.find((event) => event.type === 'gateway_status' && event.status === 'authorized')?.amount,
      ).toEqual({ amount: pending.amount, currency: 'EUR' });
    });

    /** A payment of two mugs charged at the sandbox (submitted for settlement at once); its id and transaction id. */
    async function chargedPayment(): Promise<{ id: string; transactionId: string }> {
      const pending = await pendingAttempt(db, await signedIn(app, DEMO_SHOPPER), 2);
      const paid = await sendAttempt({ db, gateway: new BraintreeGatewayAdapter(sdk) }, pending, { resend: false });
      return { id: paid.id, transactionId: paid.transaction_id ?? '' };
    }

    /** A payment with the dispute test card (the sandbox settles it and opens a chargeback); its dispute's id. */
    async function disputedPayment(amount: string): Promise<{ paymentId: string; disputeId: string }> {
      const token = JSON.parse(Buffer.from((await sdk.clientToken.generate({})).clientToken, 'base64').toString()) as {
        authorizationFingerprint: string;
        clientApiUrl: string;
      };
      // As the checkout's card frame does: the card goes to the gateway's client API, never to our server.
      const tokenized = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          authorizationFingerprint: token.authorizationFingerprint,
          creditCard: { number: '4023898493988028', expirationDate: '12/2031', cvv: '123' },
        }),
      });
      const nonce = ((await tokenized.json()) as { creditCards: Array<{ nonce: string }> }).creditCards[0]?.nonce ?? '';
      const shopper = await signedIn(app, DEMO_SHOPPER);
      const order = (await shopper.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] })).json<{
        order: { id: string; total: { amount: number; currency: string } };
      }>().order;
      const pending = await insertPendingPayment(db, {
        orderId: order.id,
        amount: { amount: Number(amount.replace('.', '')), currency: order.total.currency },
        idempotencyRef: null,
        nonce,
        deviceData: null,
        merchantAccountId: null,
      });
      if (pending === undefined) throw new Error('attempt not inserted');
      const paid = await sendAttempt({ db, gateway: new BraintreeGatewayAdapter(sdk) }, pending, { resend: false });
      // @types/braintree declares dispute.search without its callback form.
      const search = sdk.dispute.search.bind(sdk.dispute) as unknown as (
        build: (search: { transactionId(): { is(value: string): void } }) => void,
        done: (error: unknown, found: Array<{ id: string } | null>) => void,
      ) => void;
      const found = await new Promise<Array<{ id: string } | null>>((resolve, reject) =>
        search(
          (builder) => builder.transactionId().is(paid.transaction_id ?? ''),
          (error, disputes) => (error ? reject(error) : resolve(disputes)),
        ),
      );
      const disputeId = found.find((dispute) => dispute !== null)?.id;
      if (disputeId === undefined) throw new Error('the sandbox opened no dispute');
      return { paymentId: paid.id, disputeId };
    }

    it('answers a dispute with text and a PDF once per key, accepts it once, refuses what a closed one cannot take, audits each', async () => {
      const { paymentId, disputeId } = await disputedPayment('12.00');
      const client = await admin();
      type Detail = {
        dispute: { id: string; status: string; payment: { id: string } | null; amount: { amount: number } };
        evidence: { comment: string | null; url: string | null }[];
      };
      const read = await client.get(`/api/admin/disputes/${disputeId}`);
      expect(read.json<Detail>()).toMatchObject({
        dispute: { id: disputeId, status: 'open', payment: { id: paymentId }, amount: { amount: 1200, currency: 'EUR' } },
        evidence: [],
      });

      const textKey = randomUUID();
      const text = () =>
        client.post(
          `/api/admin/disputes/${disputeId}/evidence`,
          { text: 'Delivered, signed for.' },
          { 'idempotency-key': textKey },
        );
      expect((await text()).json<Detail>().evidence).toEqual([expect.objectContaining({ comment: 'Delivered, signed for.' })]);
      const replayed = await text();
      expect(replayed.headers['idempotent-replayed']).toBe('true');
      const pdf = {
        name: 'receipt.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('%PDF-1.4 receipt').toString('base64'),
      };
      const filed = await client.post(
        `/api/admin/disputes/${disputeId}/evidence`,
        { file: pdf },
        { 'idempotency-key': randomUUID() },
      );
      expect(filed.statusCode, filed.body).toBe(200);
      const evidence = filed.json<Detail>().evidence;
      // At the gateway: one text (the replay added none) and the document.
      expect(evidence.map((e) => [e.comment, e.url === null])).toEqual([
        ['Delivered, signed for.', true],
        [null, false],
      ]);
      const notPdf = await client.post(
        `/api/admin/disputes/${disputeId}/evidence`,
        { file: { ...pdf, contentType: 'text/plain' } },
        { 'idempotency-key': randomUUID() },
      );
      expect(notPdf.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'file.contentType' }] });
      const both = await client.post(
        `/api/admin/disputes/${disputeId}/evidence`,
        { text: 'x', file: pdf },
        { 'idempotency-key': randomUUID() },
      );
      expect(both.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'body' }] });

      const acceptKey = randomUUID();
      const accepted = await client.post(`/api/admin/disputes/${disputeId}/accept`, {}, { 'idempotency-key': acceptKey });
      expect(accepted.json<Detail>().dispute.status).toBe('accepted');
      // The shop's list has it at once, before any webhook.
      const listed = (await client.get('/api/admin/disputes?status=accepted')).json<{ disputes: { id: string }[] }>();
      expect(listed.disputes.map((d) => d.id)).toContain(disputeId);
      const again = await client.post(`/api/admin/disputes/${disputeId}/accept`, {}, { 'idempotency-key': randomUUID() });
      expect([again.statusCode, again.json<Detail>().dispute.status]).toEqual([200, 'accepted']);
      const late = await client.post(
        `/api/admin/disputes/${disputeId}/evidence`,
        { text: 'late' },
        { 'idempotency-key': randomUUID() },
      );
      expect(late.json()).toMatchObject({ status: 409, code: 'dispute_not_open' });
      const finalized = await client.post(`/api/admin/disputes/${disputeId}/finalize`, {}, { 'idempotency-key': randomUUID() });
      expect(finalized.json()).toMatchObject({ status: 409, code: 'dispute_not_open' });
      const unknown = await client.post('/api/admin/disputes/nosuchdispute/accept', {}, { 'idempotency-key': randomUUID() });
      expect(unknown.json()).toMatchObject({ status: 404, code: 'dispute_not_found' });
      const shopper = await signedIn(app, DEMO_SHOPPER);
      const refused = await shopper.post(`/api/admin/disputes/${disputeId}/accept`, {}, { 'idempotency-key': randomUUID() });
      expect(refused.json()).toMatchObject({ status: 403, code: 'forbidden' });

      const log = await db
        .selectFrom('admin_audit_log')
        .select(['action', 'target_id', 'status'])
        .where('action', 'like', 'disputes.%')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(log.map((entry) => [entry.action, entry.status])).toEqual([
        ['disputes.read', 200],
        ['disputes.evidence', 200],
        ['disputes.evidence', 200],
        ['disputes.evidence', 200],
        ['disputes.evidence', 400],
        ['disputes.evidence', 400],
        ['disputes.accept', 200],
        ['disputes.list', 200],
        ['disputes.accept', 200],
        ['disputes.evidence', 409],
        ['disputes.finalize', 409],
        ['disputes.accept', 404],
      ]);
    });

    it("lists a dispute's evidence with its document's name and who added it, removes an item once per key, and tells each action on the payment's timeline", async () => {
      const { paymentId, disputeId } = await disputedPayment('11.00');
      const client = await admin();
      type Evidence = { id: string; comment: string | null; documentName: string | null; addedBy: string | null };
      type Detail = { dispute: { status: string }; replyByDate: string | null; evidence: Evidence[] };
      const key = () => ({ 'idempotency-key': randomUUID() });
      const note = await client.post(`/api/admin/disputes/${disputeId}/evidence`, { text: 'Signed for at the door.' }, key());
      const pdf = {
        name: 'delivery-note.pdf',
        contentType: 'application/pdf',
        data: Buffer.from('%PDF-1.4 note').toString('base64'),
      };
      const filed = await client.post(`/api/admin/disputes/${disputeId}/evidence`, { file: pdf }, key());
      // The answer to the upload already names the document and its sender, as every later read does.
      const expected = [
        { comment: 'Signed for at the door.', documentName: null, addedBy: 'admin@kassa.test' },
        { comment: null, documentName: 'delivery-note.pdf', addedBy: 'admin@kassa.test' },
      ];
      expect(filed.json<Detail>().evidence).toMatchObject(expected);
      const read = (await client.get(`/api/admin/disputes/${disputeId}`)).json<Detail>();
      expect(read.evidence).toMatchObject(expected);
      // The gateway's last day to answer: days ahead (the sandbox gives 20).
      expect(read.replyByDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(Date.parse(read.replyByDate ?? '')).toBeGreaterThan(Date.now() + 10 * 24 * 60 * 60 * 1000);

      const noteId = note.json<Detail>().evidence[0]?.id ?? '';
      const removeKey = key();
      const remove = () => client.request('DELETE', `/api/admin/disputes/${disputeId}/evidence/${noteId}`, undefined, removeKey);
      const removed = await remove();
      expect(removed.statusCode, removed.body).toBe(200);
      expect(removed.json<Detail>().evidence.map((item) => item.documentName)).toEqual(['delivery-note.pdf']);
      const replayed = await remove();
      expect([replayed.statusCode, replayed.headers['idempotent-replayed']]).toEqual([200, 'true']);
      const gone = await client.request('DELETE', `/api/admin/disputes/${disputeId}/evidence/${noteId}`, undefined, key());
      expect(gone.json()).toMatchObject({ status: 404, code: 'evidence_not_found' });
      const badId = await client.request('DELETE', `/api/admin/disputes/${disputeId}/evidence/not%20an%20id`, undefined, key());
      expect(badId.json()).toMatchObject({ status: 400, code: 'validation_failed' });
      // At the gateway too: only the document is left.
      expect((await client.get(`/api/admin/disputes/${disputeId}`)).json<Detail>().evidence).toHaveLength(1);

      const accepted = await client.post(`/api/admin/disputes/${disputeId}/accept`, {}, key());
      expect(accepted.json<Detail>().dispute.status).toBe('accepted');
      const documentId = filed.json<Detail>().evidence[1]?.id ?? '';
      const closed = await client.request('DELETE', `/api/admin/disputes/${disputeId}/evidence/${documentId}`, undefined, key());
      expect(closed.json()).toMatchObject({ status: 409, code: 'dispute_not_open' });

      // The payment's timeline: each change once (not the replay, not the refusals), with what and who.
      const detail = (await client.get(`/api/admin/payments/${paymentId}`)).json<{
        timeline: { events: { type: string; action?: string; disputeId?: string; evidenceKind?: string | null }[] };
      }>();
      const actions = detail.timeline.events.filter((event) => event.type === 'dispute_action');
      expect(actions).toEqual([
        expect.objectContaining({ action: 'evidence_added', disputeId, evidenceKind: 'text', actorEmail: 'admin@kassa.test' }),
        expect.objectContaining({ action: 'evidence_added', evidenceKind: 'document', documentName: 'delivery-note.pdf' }),
        expect.objectContaining({ action: 'evidence_removed', evidenceKind: null, actorEmail: 'admin@kassa.test' }),
        expect.objectContaining({ action: 'accepted', actorEmail: 'admin@kassa.test' }),
      ]);
      // The audit log's changes: the replayed removal is marked as such.
      const activity = (await client.get('/api/admin/activity?limit=100')).json<{
        entries: { action: string; status: number; replayed: boolean }[];
      }>();
      expect(
        activity.entries.filter((entry) => entry.action === 'disputes.removeEvidence').map((e) => [e.status, e.replayed]),
      ).toEqual([
        [409, false],
        [400, false],
        [404, false],
        [200, true],
        [200, false],
      ]);
    });

    it('finalizes a dispute answered with winning evidence: the gateway decides it won, and the shop records it', async () => {
      const { disputeId } = await disputedPayment('13.00');
      const client = await admin();
      const key = () => ({ 'idempotency-key': randomUUID() });
      await client.post(`/api/admin/disputes/${disputeId}/evidence`, { text: 'compelling_evidence' }, key());
      const finalized = await client.post(`/api/admin/disputes/${disputeId}/finalize`, {}, key());
      expect(finalized.json()).toMatchObject({ dispute: { id: disputeId, status: 'won' } });
      const row = await db.selectFrom('disputes').select('status').where('id', '=', disputeId).executeTakeFirst();
      expect(row?.status).toBe('won');
    });

    it('a refund racing the settlement: refused while it settles (neither refund nor void, said so), then given once', async () => {
      const payment = await chargedPayment();
      const client = await admin();
      const key = randomUUID();
      const refund = () => client.post(`/api/admin/payments/${payment.id}/refund`, { amount: 500 }, { 'idempotency-key': key });
      // Asked while the gateway settles it at that very moment: either refused as not settled, or given once settled.
      const [raced] = await Promise.all([refund(), sdk.testing.settlementPending(payment.transactionId)]);
      expect([201, 409]).toContain(raced.statusCode);
      if (raced.statusCode === 409) expect(raced.json().code).toMatch(/^(refund_not_settled|payment_settling)$/);
      // Settling (settlement_pending): the gateway takes neither a refund nor a void, and the merchant is told to wait.
      if (raced.statusCode === 409) {
        const settling = await client.post(
          `/api/admin/payments/${payment.id}/refund`,
          { amount: 500 },
          { 'idempotency-key': randomUUID() },
        );
        expect(settling.json()).toMatchObject({ status: 409, code: 'payment_settling' });
        const voided = await client.post(`/api/admin/payments/${payment.id}/void`, {}, { 'idempotency-key': randomUUID() });
        expect(voided.json()).toMatchObject({ status: 409, code: 'payment_settling' });
      }
      await sdk.testing.settle(payment.transactionId);
      // The same key replays its first answer, whatever it was (a refusal stays one: nothing given back under it).
      const sameKey = await refund();
      expect([sameKey.statusCode, sameKey.headers['idempotent-replayed']]).toEqual([raced.statusCode, 'true']);
      // Once settled the refund is made with a new key, and only once.
      const settledKey = raced.statusCode === 201 ? key : randomUUID();
      const refundOnce = () =>
        client.post(`/api/admin/payments/${payment.id}/refund`, { amount: 500 }, { 'idempotency-key': settledKey });
      const given = raced.statusCode === 201 ? raced : await refundOnce();
      expect(given.statusCode, given.body).toBe(201);
      const again = await refundOnce();
      expect(again.json().refund.id).toBe(given.json().refund.id);
      const sale = await sdk.transaction.find(payment.transactionId);
      expect(sale.refundIds).toHaveLength(1);
      const detail = (await client.get(`/api/admin/payments/${payment.id}`)).json<{ payment: { status: string } }>();
      expect(detail.payment.status).toBe('partially_refunded');
    });

    it('lists the subscriptions the gateway bills with their plan and customer, filtered by status', async () => {
      const shopper = await signedIn(app, DEMO_SHOPPER);
      const created = await shopper.post(
        '/api/subscriptions',
        { planId: 'coffee-monthly', nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken('payment') },
        { 'idempotency-key': randomUUID() },
      );
      expect(created.statusCode, created.body).toBe(201);
      const id = created.json<{ subscription: { id: string } }>().subscription.id;
      const client = await admin();

      type List = {
        subscriptions: {
          id: string;
          planName: string;
          status: string;
          price: { amount: number };
          failureCount: number;
          customer: { email: string } | null;
        }[];
      };
      const active = (await client.get('/api/admin/subscriptions?status=Active')).json<List>();
      expect(active.subscriptions.find((s) => s.id === id)).toMatchObject({
        planName: 'Coffee beans, 1 kg, every month',
        status: 'Active',
        price: { amount: 2450, currency: 'EUR' },
        failureCount: 0,
        customer: { email: 'shopper@kassa.test' },
      });
      expect(active.subscriptions.every((s) => s.status === 'Active')).toBe(true);
      expect(
        (await client.get('/api/admin/subscriptions?status=Canceled')).json<List>().subscriptions.map((s) => s.id),
      ).not.toContain(id);
      expect((await client.get('/api/admin/subscriptions?status=Lost')).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'status' }],
      });
    });

    /** Subscribes the shopper to the monthly plan, with the card saved by their first subscription; the new one's id. */
    async function subscribed(shopper: TestClient): Promise<string> {
      const saved = (await shopper.get('/api/payment-methods')).json<{ paymentMethods: { id: string }[] }>().paymentMethods;
      // A new card's first charge is a payment: it carries the payment bot-check.
      const paidWith =
        saved[0] === undefined
          ? { nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken('payment') }
          : { paymentMethodId: saved[0].id };
      const created = await shopper.post(
        '/api/subscriptions',
        { planId: 'coffee-monthly', ...paidWith },
        { 'idempotency-key': randomUUID() },
      );
      expect(created.statusCode, created.body).toBe(201);
      return created.json<{ subscription: { id: string } }>().subscription.id;
    }

    it('pages the subscriptions by cursor, newest first, neither repeating nor skipping one made in the same second', async () => {
      const shopper = await signedIn(app, DEMO_SHOPPER);
      const made = [await subscribed(shopper), await subscribed(shopper), await subscribed(shopper)];
      const client = await admin();
      type Page = { subscriptions: { id: string; createdAt: string }[]; nextCursor: string | null };
      const whole = (await client.get('/api/admin/subscriptions?limit=100')).json<Page>();
      expect(whole.nextCursor).toBeNull();
      const paged: string[] = [];
      let cursor: string | null = null;
      do {
        const query: string = cursor === null ? '' : `&cursor=${cursor}`;
        const page = (await client.get(`/api/admin/subscriptions?limit=1${query}`)).json<Page>();
        expect(page.subscriptions.length).toBeLessThanOrEqual(1);
        paged.push(...page.subscriptions.map((s) => s.id));
        cursor = page.nextCursor;
      } while (cursor !== null && paged.length <= whole.subscriptions.length);
      expect(paged).toEqual(whole.subscriptions.map((s) => s.id));
      expect(paged).toEqual(expect.arrayContaining(made));
      const times = whole.subscriptions.map((s) => Date.parse(s.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect((await client.get('/api/admin/subscriptions?cursor=not-ours')).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'cursor' }],
      });
    });

    it('cancels a subscription at the gateway once per key, answers a canceled one unchanged, and audits each', async () => {
      const shopper = await signedIn(app, DEMO_SHOPPER);
      const id = await subscribed(shopper);
      const client = await admin();
      const key = randomUUID();
      const canceled = await client.post(`/api/admin/subscriptions/${id}/cancel`, {}, { 'idempotency-key': key });
      expect(canceled.statusCode, canceled.body).toBe(200);
      expect(canceled.json()).toMatchObject({
        subscription: { id, status: 'Canceled', nextBillingDate: null, customer: { email: 'shopper@kassa.test' } },
      });
      // At the gateway itself, and in the shopper's own list.
      expect((await sdk.subscription.find(id)).status).toBe('Canceled');
      const mine = (await shopper.get('/api/subscriptions')).json<{ subscriptions: { id: string; status: string }[] }>();
      expect(mine.subscriptions.find((s) => s.id === id)?.status).toBe('Canceled');

      const replayed = await client.post(`/api/admin/subscriptions/${id}/cancel`, {}, { 'idempotency-key': key });
      expect([replayed.statusCode, replayed.headers['idempotent-replayed']]).toEqual([200, 'true']);
      const again = await client.post(`/api/admin/subscriptions/${id}/cancel`, {}, { 'idempotency-key': randomUUID() });
      expect([again.statusCode, again.json().subscription.status]).toEqual([200, 'Canceled']);
      const unknown = await client.post('/api/admin/subscriptions/ks_nope/cancel', {}, { 'idempotency-key': randomUUID() });
      expect(unknown.json()).toMatchObject({ status: 404, code: 'subscription_not_found' });
      expect((await client.post(`/api/admin/subscriptions/${id}/cancel`, {})).json()).toMatchObject({
        status: 400,
        code: 'validation_failed',
      });

      const log = await db
        .selectFrom('admin_audit_log')
        .select(['action', 'target_id', 'status'])
        .where('action', '=', 'subscriptions.cancel')
        .orderBy('created_at')
        .orderBy('id')
        .execute();
      expect(log.map((entry) => [entry.target_id, entry.status])).toEqual([
        [id, 200],
        [id, 200],
        [id, 200],
        ['ks_nope', 404],
        [id, 400],
      ]);
    });
  },
);
