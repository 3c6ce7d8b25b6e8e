import type { FastifyInstance } from 'fastify';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Db } from '../db/connect.ts';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import { GatewayUnavailableError } from '../gateway/gateway.ts';
import type { PaymentGateway, RefundResult, SaleInput, SaleResult, TransactionHistory, VoidResult } from '../gateway/gateway.ts';
import { buildApp } from '../index.ts';
import { reconcileStaleAttempts } from '../jobs/reconciler.ts';
import { staleAttemptMsFor } from '../config.ts';
import { compareAttempts, findOrderAttempts, findOwnedOrder } from '../orders/orders.repository.ts';
import { IdempotencyRepository } from './idempotency.repository.ts';
import { gatewayRequestKey, payOrder, sendAttempt } from './pay-order.ts';
import { insertPendingPayment, recordOutcome } from './payments.repository.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { ENGINES, sqliteEngine } from '../testing/engines.ts';
import { insertMugOrder } from '../testing/orders.ts';
import { sandboxPerFile, startSandboxProcess } from '../testing/sandbox.ts';
import type { RunningSandbox } from '../testing/sandbox.ts';
import { outcomeCounter } from '../velocity/guard.ts';
import { Velocity } from '../velocity/velocity.ts';

/** The real sandbox behind the real SDK adapter, counting sales; `loseNextAnswer` drops one answer in transit. */
class ObservedGateway implements PaymentGateway {
  sales: SaleInput[] = [];
  loseNextAnswer = false;
  lostOutcomes: SaleResult[] = [];
  readonly #inner: PaymentGateway;
  constructor(inner: PaymentGateway) {
    this.#inner = inner;
  }
  createCustomer(input: { email: string; name: string }) {
    return this.#inner.createCustomer(input);
  }
  generateClientToken() {
    return this.#inner.generateClientToken();
  }
  voidTransaction(transactionId: string, input: { requestKey: string }): Promise<VoidResult> {
    return this.#inner.voidTransaction(transactionId, input);
  }
  refundTransaction(transactionId: string, input: { amount: string; requestKey: string }): Promise<RefundResult> {
    return this.#inner.refundTransaction(transactionId, input);
  }
  transactionStatus(transactionId: string): Promise<string> {
    return this.#inner.transactionStatus(transactionId);
  }
  transactionHistory(transactionId: string): Promise<TransactionHistory> {
    return this.#inner.transactionHistory(transactionId);
  }
  async sale(input: SaleInput): Promise<SaleResult> {
    this.sales.push(input);
    const outcome = await this.#inner.sale(input);
    if (this.loseNextAnswer) {
      this.loseNextAnswer = false;
      this.lostOutcomes.push(outcome);
      throw new GatewayUnavailableError('answer lost in transit (test)');
    }
    return outcome;
  }
}

interface PaymentAnswer {
  payment: {
    id: string;
    status: string;
    amount: { amount: number; currency: string };
    transactionId: string;
    card: { brand: string; lastFour: string };
  };
  order: { id: string; status: string };
}

const sandbox = sandboxPerFile();

describe.each(ENGINES.map((make) => [make().name, make] as const))(
  'payments on %s against the sandbox gateway',
  (_name, make) => {
    const engine = make();
    let app: FastifyInstance;
    let db: Db;
    let gateway: ObservedGateway;
    let cleanup: () => Promise<void>;
    let opened: Awaited<ReturnType<typeof engine.open>>;

    beforeAll(async () => {
      await engine.setup();
    });
    afterAll(async () => {
      await engine.teardown();
    });
    beforeEach(async () => {
      opened = await engine.open();
      db = opened.handle.db;
      gateway = new ObservedGateway(new BraintreeGatewayAdapter(createBraintreeClient(sandbox.gateway)));
      app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle, gateway });
      cleanup = async () => {
        await app.close();
        await opened.cleanup();
      };
    });
    afterEach(() => cleanup());

    async function orderOf(client: TestClient, productId = 'prd_mug', quantity = 1): Promise<string> {
      const response = await client.post('/api/orders', { items: [{ productId, quantity }] });
      expect(response.statusCode).toBe(201);
      return response.json<{ order: { id: string } }>().order.id;
    }

    async function pay(client: TestClient, orderId: string, key: string, body: Record<string, unknown> = {}) {
      const payload = {
        nonce: 'fake-valid-visa-nonce',
        deviceData: '{"device_session_id":"abc"}',
        botcheck: await client.botcheckToken(),
        ...body,
      };
      return client.post(`/api/orders/${orderId}/payments`, payload, { 'idempotency-key': key });
    }

    it('opens a checkout session with a client token for the gateway', async () => {
      const guest = new TestClient(app);
      const orderId = await orderOf(guest, 'prd_mug', 2);
      const response = await guest.post(`/api/orders/${orderId}/checkout-session`);
      expect(response.statusCode).toBe(200);
      const session = response.json<{ clientToken: string; amount: unknown; checkout: unknown; botcheck: unknown }>();
      expect(session.amount).toEqual({ amount: 2400, currency: 'EUR' });
      expect(session.checkout).toEqual({ cardholderName: 'optional', vaultCard: false, vaultManager: false });
      expect(session.botcheck).toEqual({
        provider: 'altcha',
        challengeUrl: '/api/botcheck/challenge?action=payment',
        anchorTimeoutMs: 20000,
        executeTimeoutMs: 15000,
      });
      const token = JSON.parse(Buffer.from(session.clientToken, 'base64').toString()) as Record<string, unknown>;
      expect(token).toMatchObject({ version: 2, merchantId: sandbox.gateway.merchantId, assetsUrl: sandbox.origin });

      // A signed-in shopper gets a gateway customer (at sign-up) and the checkout's saved methods (through our API:
      // its client token is bound to no customer, saved-methods.http.test.ts).
      const shopper = new TestClient(app);
      const signUp = await shopper.signUp({
        email: 'bea@example.com',
        password: 'bea password',
        name: 'Bea Example',
      });
      const accountId = signUp.json<{ account: { id: string } }>().account.id;
      const row = await db
        .selectFrom('accounts')
        .select('gateway_customer_id')
        .where('id', '=', accountId)
        .executeTakeFirstOrThrow();
      expect(row.gateway_customer_id).toMatch(/^[A-Za-z0-9_-]+$/);
      const own = await shopper.post(`/api/orders/${await orderOf(shopper)}/checkout-session`);
      expect(own.json()).toMatchObject({ checkout: { vaultCard: true, vaultManager: true } });
    });

    it('pays an order: amount from the order, outcome recorded, order paid', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client, 'prd_coffeebeans', 2);
      const response = await pay(client, orderId, 'key-paid', { amount: 1 });
      expect(response.statusCode).toBe(201);
      const answer = response.json<PaymentAnswer>();
      expect(answer.payment).toMatchObject({
        status: 'succeeded',
        amount: { amount: 4900, currency: 'EUR' },
        card: { brand: 'Visa' },
      });
      expect(answer.payment.id).toMatch(/^pay_/);
      expect(answer.payment.card.lastFour).toMatch(/^\d{4}$/);
      expect(answer.order).toMatchObject({ id: orderId, status: 'paid' });
      expect(gateway.sales).toEqual([
        {
          amount: '49.00',
          nonce: 'fake-valid-visa-nonce',
          deviceData: '{"device_session_id":"abc"}',
          orderId,
          requestKey: `kassa-${answer.payment.id}`,
        },
      ]);

      // The gateway has the transaction, settling.
      const transaction = await createBraintreeClient(sandbox.gateway).transaction.find(answer.payment.transactionId);
      expect(transaction.amount).toBe('49.00');
      expect(transaction.orderId).toBe(orderId);

      const order = (await client.get(`/api/orders/${orderId}`)).json<{ order: { status: string; payment: unknown } }>().order;
      expect(order.status).toBe('paid');
      expect(order.payment).toEqual(answer.payment);

      const again = await pay(client, orderId, 'key-paid-2');
      expect(again.statusCode).toBe(409);
      expect(again.json()).toMatchObject({ code: 'order_already_paid' });
      expect(gateway.sales).toHaveLength(1);
    });

    it('answers a decline at 2000.00 with 402 and the reason', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client, 'prd_espressomachine');
      const response = await pay(client, orderId, 'key-decline');
      expect(response.statusCode).toBe(402);
      expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
      const problem = response.json<{
        code: string;
        decline: Record<string, unknown>;
        payment: { id: string; status: string };
      }>();
      expect(problem.code).toBe('payment_declined');
      expect(problem.decline).toMatchObject({ reason: 'processor_declined', processorResponseCode: '2000' });
      expect(problem.payment).toEqual({ id: expect.stringMatching(/^pay_/), status: 'declined' });
      expect(gateway.sales[0]?.amount).toBe('2000.00');
      const order = (await client.get(`/api/orders/${orderId}`)).json<{
        order: { status: string; payment: { status: string } };
      }>().order;
      expect(order.status).toBe('pending');
      expect(order.payment.status).toBe('declined');
    });

    it('maps gateway rejections and refused nonces to 402 gateway_rejected', async () => {
      const client = new TestClient(app);
      const fraud = await pay(client, await orderOf(client), 'key-fraud', { nonce: 'fake-gateway-rejected-fraud-nonce' });
      expect(fraud.statusCode).toBe(402);
      expect(fraud.json()).toMatchObject({
        code: 'payment_declined',
        decline: { reason: 'gateway_rejected', gatewayRejectionReason: 'fraud' },
      });
      const consumed = await pay(client, await orderOf(client), 'key-consumed', { nonce: 'fake-consumed-nonce' });
      expect(consumed.statusCode).toBe(402);
      expect(consumed.json()).toMatchObject({
        code: 'payment_declined',
        decline: { reason: 'gateway_rejected' },
        payment: { status: 'declined' },
      });
    });

    it('replays the saved answer for the same Idempotency-Key, charging once', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
      // The answers are saved with their outcomes (one commit), not at their send.
      const complete = vi.spyOn(IdempotencyRepository.prototype, 'complete');
      const first = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'replay-me' });
      const second = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'replay-me' });
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.body).toBe(first.body);
      expect(second.headers['content-type']).toBe(first.headers['content-type']);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(gateway.sales).toHaveLength(1);
      expect(await db.selectFrom('payments').select('id').where('order_id', '=', orderId).execute()).toHaveLength(1);

      const reused = await client.post(
        `/api/orders/${orderId}/payments`,
        { ...body, nonce: 'fake-valid-mastercard-nonce' },
        { 'idempotency-key': 'replay-me' },
      );
      expect(reused.statusCode).toBe(422);
      expect(reused.json()).toMatchObject({ code: 'idempotency_key_reused' });

      // Declines are saved and replayed too.
      const declined = await orderOf(client, 'prd_espressomachine');
      const declineBody = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
      const d1 = await client.post(`/api/orders/${declined}/payments`, declineBody, { 'idempotency-key': 'decline-key' });
      const d2 = await client.post(`/api/orders/${declined}/payments`, declineBody, { 'idempotency-key': 'decline-key' });
      expect([d1.statusCode, d2.statusCode]).toEqual([402, 402]);
      expect(d2.body).toBe(d1.body);
      expect(d2.headers['content-type']).toBe(d1.headers['content-type']);
      expect(gateway.sales).toHaveLength(2);
      expect(complete).not.toHaveBeenCalled();
      complete.mockRestore();
    });

    it('answers a key whose request died after recording its decline with that decline, counted once', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client, 'prd_espressomachine');
      const first = await pay(client, orderId, 'died-after-outcome');
      expect(first.statusCode).toBe(402);
      // The request recorded the decline (and its count, in the same transaction), then died before saving its
      // answer: the key is left unanswered, its lock stale, so a retry takes it over and finds the attempt finished.
      const lockedLongAgo = new Date(Date.now() - 60 * 60 * 1000).toISOString();
      await db
        .updateTable('idempotency_keys')
        .set({ response_status: null, response_body: null, locked_at: lockedLongAgo })
        .where('key', '=', 'died-after-outcome')
        .execute();
      const retry = await pay(client, orderId, 'died-after-outcome');
      expect(retry.statusCode).toBe(402);
      expect(retry.json()).toEqual(first.json());
      expect(gateway.sales).toHaveLength(1);
      const declines = await db
        .selectFrom('velocity_counts')
        .select((eb) => eb.fn.sum<string | number>('count').as('events'))
        .where('action', '=', 'decline')
        .where('dimension', '=', 'shop')
        .executeTakeFirst();
      expect(Number(declines?.events)).toBe(1);
    });

    it('charges once when two requests with the same key race', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
      const answers = await Promise.all(
        [1, 2, 3].map(() => client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'race' })),
      );
      const statuses = answers.map((a) => a.statusCode);
      expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
      for (const answer of answers) {
        if (answer.statusCode === 409) expect(answer.json()).toMatchObject({ code: 'idempotency_key_in_use' });
        else expect(answer.statusCode).toBe(201);
      }
      expect(gateway.sales).toHaveLength(1);
      const transactions = new Set(
        answers.filter((a) => a.statusCode === 201).map((a) => a.json<PaymentAnswer>().payment.transactionId),
      );
      expect(transactions.size).toBe(1);
    });

    it('charges once when two requests with different keys race for one order', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const tokens = await Promise.all([client.botcheckToken(), client.botcheckToken()]);
      const answers = await Promise.all(
        tokens.map((botcheck, i) =>
          client.post(
            `/api/orders/${orderId}/payments`,
            { nonce: 'fake-valid-visa-nonce', botcheck },
            { 'idempotency-key': `k${i}` },
          ),
        ),
      );
      const codes = answers.map((a) => (a.statusCode === 201 ? 'paid' : a.json<{ code: string }>().code));
      expect(codes.filter((c) => c === 'paid')).toHaveLength(1);
      expect(codes.filter((c) => c !== 'paid').every((c) => c === 'order_already_paid' || c === 'payment_in_progress')).toBe(
        true,
      );
      expect(gateway.sales).toHaveLength(1);
    });

    /** An attempt of `order` made and declined, straight in the database: its id. */
    async function declinedAttempt({ order, total }: Awaited<ReturnType<typeof insertMugOrder>>, idempotencyRef: string) {
      const attempt = await insertPendingPayment(db, {
        orderId: order.id,
        amount: total,
        idempotencyRef,
        nonce: `nonce-${idempotencyRef}`,
        deviceData: null,
        merchantAccountId: null,
      });
      if (attempt === undefined) throw new Error('no attempt recorded');
      return (await recordOutcome(db, attempt, { kind: 'declined', reason: 'processor_declined' })).payment.id;
    }

    /**
     * Pays `mug`'s order with an answer made before the outcome (answerOf) for a claimed key: the attempts it lists.
     * `meanwhile` runs after the request read the order's attempts, before it makes its own.
     */
    async function payWithAnswer(mug: Awaited<ReturnType<typeof insertMugOrder>>, key: string, meanwhile?: () => Promise<void>) {
      const { order, owner } = mug;
      const scope = owner.sessionId;
      expect(await new IdempotencyRepository(db).claim(scope, key, 'hash')).toEqual({ kind: 'acquired' });
      const result = await payOrder(
        {
          db,
          gateway,
          checkBotcheck: async () => {
            await meanwhile?.();
            return { ok: true };
          },
          merchantAccountId: null,
          threeDSecureRequiredAbove: null,
          staleAttemptMs: 60_000,
          answerOf: (finished) => ({ scope, key, status: 201, body: JSON.stringify(finished.order.payments.map((p) => p.id)) }),
        },
        { orderId: order.id, owner, nonce: 'fake-valid-visa-nonce', botcheckToken: 'solved', idempotencyRef: `${scope}:${key}` },
      );
      if (result.kind !== 'succeeded') throw new Error(`not charged: ${result.kind}`);
      const saved = await db
        .selectFrom('idempotency_keys')
        .select(['response_status', 'response_body'])
        .where('scope', '=', scope)
        .where('key', '=', key)
        .executeTakeFirstOrThrow();
      return { result, saved };
    }

    it("lists every attempt of the order in a charge's answer, one another key declined while it ran included; the answer made before its outcome, which missed it, is not saved", async () => {
      const mug = await insertMugOrder(db, 'ses_attempts');
      const declineOf = (idempotencyRef: string) => declinedAttempt(mug, idempotencyRef);
      const before = await declineOf('ses_attempts:first');
      // Another key's attempt made and declined after this request read the order's attempts, before it made its own.
      let meanwhile = '';
      const { result, saved } = await payWithAnswer(mug, 'third', async () => {
        meanwhile = await declineOf('ses_attempts:second');
      });
      // In the order they were made, even when made within one millisecond (the next test).
      expect(result.order.payments.map((p) => [p.id, p.status])).toEqual([
        [before, 'declined'],
        [meanwhile, 'declined'],
        [result.payment.id, 'succeeded'],
      ]);
      expect(result.order).toEqual(await findOwnedOrder(db, mug.order.id, mug.owner));
      // The answer made before the outcome listed two attempts, the order had three: the request saves its own at its send.
      expect(result.saved).toBeUndefined();
      expect(saved).toEqual({ response_status: null, response_body: null });
    });

    it("saves the answer made before the outcome with the outcome, when it holds: the order's attempts as read and this one", async () => {
      const mug = await insertMugOrder(db, 'ses_saved');
      const before = await declinedAttempt(mug, 'ses_saved:first');
      const { result, saved } = await payWithAnswer(mug, 'second');
      const answer = JSON.stringify([before, result.payment.id]);
      expect(result.saved).toEqual({ scope: mug.owner.sessionId, key: 'second', status: 201, body: answer });
      expect(saved).toEqual({ response_status: 201, response_body: answer });
      expect(result.order).toEqual(await findOwnedOrder(db, mug.order.id, mug.owner));
    });

    it('lists two attempts made in the same millisecond in the order they were made, whatever their ids, read or put together', async () => {
      const mug = await insertMugOrder(db, 'ses_tied');
      const older = await declinedAttempt(mug, 'ses_tied:first');
      const newer = await declinedAttempt(mug, 'ses_tied:second');
      // Both made in one millisecond, the older answered within it (as it must be before the newer can be made), the
      // newer a millisecond later; the newer's id sorts first.
      const made = '2026-11-27T03:00:00.000Z';
      const moves = [
        { id: older, to: 'pay_zzzzzzzzzzzzzzzzzzzz', updated_at: made },
        { id: newer, to: 'pay_00000000000000000000', updated_at: '2026-11-27T03:00:00.001Z' },
      ];
      for (const { id, to, updated_at } of moves)
        await db.updateTable('payments').set({ id: to, created_at: made, updated_at }).where('id', '=', id).execute();
      const attempts = await findOrderAttempts(db, mug.order.id);
      expect(attempts.map((attempt) => attempt.id)).toEqual(moves.map((move) => move.to));
      expect([...attempts].reverse().sort(compareAttempts)).toEqual(attempts);
    });

    it("lists a stale attempt it finished first with that outcome, not as read pending, in its own charge's answer", async () => {
      const { order, owner, total } = await insertMugOrder(db, 'ses_stale');
      // Another key's attempt whose answer was lost, untouched since: this request sends it again (declined) first.
      const stale = await insertPendingPayment(db, {
        orderId: order.id,
        amount: total,
        idempotencyRef: 'ses_stale:lost',
        nonce: 'fake-processor-declined-visa-nonce',
        deviceData: null,
        merchantAccountId: null,
      });
      if (stale === undefined) throw new Error('no attempt recorded');
      const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await db.updateTable('payments').set({ updated_at: twoMinutesAgo }).where('id', '=', stale.id).execute();
      const result = await payOrder(
        {
          db,
          gateway,
          checkBotcheck: async () => ({ ok: true }),
          merchantAccountId: null,
          threeDSecureRequiredAbove: null,
          staleAttemptMs: 60_000,
        },
        { orderId: order.id, owner, nonce: 'fake-valid-visa-nonce', botcheckToken: 'solved', idempotencyRef: 'ses_stale:next' },
      );
      if (result.kind !== 'succeeded') throw new Error(`not charged: ${result.kind}`);
      expect(result.order.payments.map((p) => [p.id, p.status])).toEqual([
        [stale.id, 'declined'],
        [result.payment.id, 'succeeded'],
      ]);
      expect(result.order).toEqual(await findOwnedOrder(db, order.id, owner));
    });

    it('refuses a reused bot-check token with 403', async () => {
      const client = new TestClient(app);
      const firstOrder = await orderOf(client); // the session the bot-check solution is bound to
      const botcheck = await client.botcheckToken();
      const first = await client.post(
        `/api/orders/${firstOrder}/payments`,
        { nonce: 'fake-valid-visa-nonce', botcheck },
        { 'idempotency-key': 'bc-1' },
      );
      expect(first.statusCode).toBe(201);
      const second = await client.post(
        `/api/orders/${await orderOf(client)}/payments`,
        { nonce: 'fake-valid-visa-nonce', botcheck },
        { 'idempotency-key': 'bc-2' },
      );
      expect(second.statusCode).toBe(403);
      expect(second.json()).toMatchObject({ code: 'botcheck_failed' });
      const forged = await client.post(
        `/api/orders/${await orderOf(client)}/payments`,
        { nonce: 'fake-valid-visa-nonce', botcheck: 'Zm9vYmFy' },
        { 'idempotency-key': 'bc-3' },
      );
      expect(forged.statusCode).toBe(403);
      expect(gateway.sales).toHaveLength(1);
    });

    it('names the bad field of a malformed payment request', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const noKey = await client.post(`/api/orders/${orderId}/payments`, { nonce: 'fake-valid-visa-nonce', botcheck: 'x' });
      expect(noKey.statusCode).toBe(400);
      expect(noKey.json()).toMatchObject({ code: 'validation_failed', errors: [{ field: 'Idempotency-Key' }] });
      const longKey = await client.post(
        `/api/orders/${orderId}/payments`,
        { nonce: 'n', botcheck: 'x' },
        { 'idempotency-key': 'k'.repeat(256) },
      );
      expect(longKey.json()).toMatchObject({ errors: [{ field: 'Idempotency-Key' }] });
      const noNonce = await client.post(
        `/api/orders/${orderId}/payments`,
        { nonce: 42, botcheck: 'x' },
        { 'idempotency-key': 'k' },
      );
      expect(noNonce.statusCode).toBe(400);
      expect(noNonce.json()).toMatchObject({ errors: [{ field: 'nonce' }] });
      const noBotcheck = await client.post(`/api/orders/${orderId}/payments`, { nonce: 'n' }, { 'idempotency-key': 'k' });
      expect(noBotcheck.json()).toMatchObject({ errors: [{ field: 'botcheck' }] });
      expect(gateway.sales).toHaveLength(0);
    });

    it("hides other visitors' orders from payment", async () => {
      const owner = new TestClient(app);
      const orderId = await orderOf(owner);
      const stranger = new TestClient(app);
      await orderOf(stranger);
      const response = await pay(stranger, orderId, 'stranger');
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ code: 'order_not_found' });
      expect((await stranger.post(`/api/orders/${orderId}/checkout-session`)).statusCode).toBe(404);
    });

    it('resumes an attempt whose answer was lost: same gateway request key, one charge', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
      gateway.loseNextAnswer = true;
      const lost = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'lost' });
      expect(lost.statusCode).toBe(502);
      expect(lost.json()).toMatchObject({ code: 'gateway_unavailable' });
      // The key stays pinned to its nonce: another card cannot ride on the unfinished attempt.
      const otherCard = await client.post(
        `/api/orders/${orderId}/payments`,
        { ...body, nonce: 'fake-valid-mastercard-nonce' },
        { 'idempotency-key': 'lost' },
      );
      expect(otherCard.json()).toMatchObject({ code: 'idempotency_key_reused' });
      // A retry carries a fresh bot-check token: a credential, not part of the request, so it still resumes.
      const retry = await client.post(
        `/api/orders/${orderId}/payments`,
        { ...body, botcheck: await client.botcheckToken() },
        { 'idempotency-key': 'lost' },
      );
      expect(retry.statusCode).toBe(201);
      const answer = retry.json<PaymentAnswer>();
      expect(gateway.sales.map((s) => s.requestKey)).toEqual([`kassa-${answer.payment.id}`, `kassa-${answer.payment.id}`]);
      const lostOutcome = gateway.lostOutcomes[0];
      expect(lostOutcome?.kind === 'charged' ? lostOutcome.transactionId : undefined).toBe(answer.payment.transactionId);
    });

    it('finishes a stale attempt whose answer was lost before starting another: one charge', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      gateway.loseNextAnswer = true;
      const lost = await pay(client, orderId, 'first');
      expect(lost.statusCode).toBe(502);

      // Another card while the first attempt may still be running: refused, and not saved, so it can be retried.
      const early = await pay(client, orderId, 'second', { nonce: 'fake-valid-mastercard-nonce' });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'payment_in_progress' });

      // Once the attempt is stale, the next request sends its original request again: the gateway answers the first
      // outcome (the charge went through), and the second card is never charged. Two such requests at once: one holds
      // the attempt, the other is told a payment is in progress, and the attempt is sent once.
      // Stale after 75 s with the default 20 s gateway time-out (it was 5 minutes, whatever the configuration).
      const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await db.updateTable('payments').set({ updated_at: twoMinutesAgo }).where('order_id', '=', orderId).execute();
      const racers = await Promise.all([
        pay(client, orderId, 'second', { nonce: 'fake-valid-mastercard-nonce' }),
        pay(client, orderId, 'third', { nonce: 'fake-valid-amex-nonce' }),
      ]);
      const codes = racers.map((answer) => answer.json<{ code: string }>().code).sort();
      expect(codes[0]).toBe('order_already_paid');
      expect(['order_already_paid', 'payment_in_progress']).toContain(codes[1]);
      expect(gateway.sales.map((sale) => sale.nonce)).toEqual(['fake-valid-visa-nonce', 'fake-valid-visa-nonce']);
      // The second sale is the first one's request, sent again.
      expect(gateway.sales[1]).toEqual(gateway.sales[0]);
      const payments = await db.selectFrom('payments').selectAll().where('order_id', '=', orderId).execute();
      expect(payments.map((payment) => payment.status)).toEqual(['succeeded']);
      const lostOutcome = gateway.lostOutcomes[0];
      expect(payments[0]?.transaction_id).toBe(lostOutcome?.kind === 'charged' ? lostOutcome.transactionId : 'none');

      // The first key, retried now, gets its own attempt's answer: paid, with no further gateway call or bot-check.
      const retry = await client.post(
        `/api/orders/${orderId}/payments`,
        { nonce: 'fake-valid-visa-nonce', deviceData: '{"device_session_id":"abc"}', botcheck: 'spent' },
        { 'idempotency-key': 'first' },
      );
      expect(retry.statusCode).toBe(201);
      expect(retry.json<PaymentAnswer>().payment.transactionId).toBe(payments[0]?.transaction_id);
      expect(gateway.sales).toHaveLength(2);
    });

    it('reconciles an attempt whose answer was lost and that nobody retried; leaves fresh ones alone', async () => {
      const client = new TestClient(app);
      const [stale, fresh] = [await orderOf(client), await orderOf(client)];
      for (const [orderId, key] of [
        [stale, 'lost-stale'],
        [fresh, 'lost-fresh'],
      ] as const) {
        gateway.loseNextAnswer = true;
        expect((await pay(client, orderId, key)).statusCode).toBe(502);
      }
      const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await db.updateTable('payments').set({ updated_at: twoMinutesAgo }).where('order_id', '=', stale).execute();

      const reconciler = {
        db,
        gateway,
        log: app.log,
        staleAttemptMs: staleAttemptMsFor(20_000),
        countOutcome: outcomeCounter(new Velocity(db)),
      };
      expect(await reconcileStaleAttempts(reconciler)).toEqual({ finished: 1, unknown: 0 });
      expect((await client.get(`/api/orders/${stale}`)).json()).toMatchObject({
        order: { status: 'paid', payment: { status: 'succeeded' } },
      });
      expect((await client.get(`/api/orders/${fresh}`)).json()).toMatchObject({
        order: { status: 'pending', payment: { status: 'pending' } },
      });
      // The stale attempt was sent again under its own request key: the gateway's first answer, one charge.
      const keys = gateway.sales.map((sale) => sale.requestKey);
      expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toHaveLength(1);
      expect(gateway.sales).toHaveLength(3);
    });

    it('the app finishes an attempt nobody retried by itself, every RECONCILE_INTERVAL_SECONDS, once stale (75 s by default)', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      gateway.loseNextAnswer = true;
      expect((await pay(client, orderId, 'lost-left-to-the-app')).statusCode).toBe(502);
      // Untouched for two minutes: stale under the default gateway time-out (it was 5 minutes whatever, issue 10).
      const twoMinutesAgo = new Date(Date.now() - 2 * 60 * 1000).toISOString();
      await db.updateTable('payments').set({ updated_at: twoMinutesAgo }).where('order_id', '=', orderId).execute();
      // Another instance of the app, configured as by default but for a reconciler that runs every 100 ms.
      const instance = await buildApp(testConfig(opened.config, sandbox.gateway, { reconcileIntervalMs: 100 }), {
        database: opened.handle,
        gateway,
      });
      try {
        await expect
          .poll(async () => (await client.get(`/api/orders/${orderId}`)).json<{ order: { status: string } }>().order.status, {
            timeout: 10_000,
          })
          .toBe('paid');
      } finally {
        await instance.close();
      }
      // Sent again under its own request key: the gateway's first answer, one charge.
      expect(gateway.sales).toHaveLength(2);
      expect(new Set(gateway.sales.map((sale) => sale.requestKey)).size).toBe(1);
    });

    it('the adapter reports a refused nonce and a request-key conflict as what the gateway said, not as declines', async () => {
      const adapter = new BraintreeGatewayAdapter(createBraintreeClient(sandbox.gateway));
      const consumed = await adapter.sale({
        amount: '12.00',
        orderId: 'ord_facts',
        nonce: 'fake-consumed-nonce',
        requestKey: `kassa-facts-${Date.now()}`,
      });
      expect(consumed).toMatchObject({ kind: 'refused', reason: 'invalid_request' });
      const sale = { amount: '12.00', orderId: 'ord_conflict', requestKey: `kassa-conflict-${Date.now()}` };
      expect((await adapter.sale({ ...sale, nonce: 'fake-valid-visa-nonce' })).kind).toBe('charged');
      expect(await adapter.sale({ ...sale, nonce: 'fake-valid-mastercard-nonce' })).toMatchObject({
        kind: 'refused',
        reason: 'request_key_conflict',
      });
    });

    it('declines an attempt whose nonce the gateway refuses, but keeps a resent one pending (its outcome is unknown)', async () => {
      const client = new TestClient(app);
      const [first, resent] = [await orderOf(client), await orderOf(client)];
      const attempt = (orderId: string) =>
        insertPendingPayment(db, {
          orderId,
          amount: { amount: 1200, currency: 'EUR' },
          idempotencyRef: `ref-${orderId}`,
          nonce: 'fake-consumed-nonce',
          deviceData: null,
          merchantAccountId: null,
        });
      const declined = await sendAttempt({ db, gateway }, (await attempt(first)) ?? expect.fail('no attempt'), { resend: false });
      expect(declined).toMatchObject({ status: 'declined', decline_reason: 'gateway_rejected' });
      // A resend whose first request may have used the nonce: "already used" says nothing of that first outcome.
      const pending = (await attempt(resent)) ?? expect.fail('no attempt');
      await expect(sendAttempt({ db, gateway }, pending, { resend: true })).rejects.toBeInstanceOf(GatewayUnavailableError);
      expect(await db.selectFrom('payments').select('status').where('id', '=', pending.id).executeTakeFirst()).toEqual({
        status: 'pending',
      });
    });

    it('keeps an attempt pending when its request key came with another request (outcome unknown)', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const pending =
        (await insertPendingPayment(db, {
          orderId,
          amount: { amount: 1200, currency: 'EUR' },
          idempotencyRef: 'ref-conflict',
          nonce: 'fake-valid-visa-nonce',
          deviceData: null,
          merchantAccountId: null,
        })) ?? expect.fail('no attempt');
      // Someone else's request under this attempt's gateway key: the gateway will not say what the attempt's own did.
      await gateway.sale({
        amount: '99.00',
        orderId: 'ord_other',
        nonce: 'fake-valid-mastercard-nonce',
        requestKey: gatewayRequestKey(pending),
      });
      await expect(sendAttempt({ db, gateway }, pending, { resend: false })).rejects.toBeInstanceOf(GatewayUnavailableError);
      expect(await db.selectFrom('payments').select('status').where('id', '=', pending.id).executeTakeFirst()).toEqual({
        status: 'pending',
      });
    });

    it('does not save a failed bot-check as the final answer of its key', async () => {
      const client = new TestClient(app);
      const orderId = await orderOf(client);
      const forged = await pay(client, orderId, 'bc-retry', { botcheck: 'Zm9vYmFy' });
      expect(forged.statusCode).toBe(403);
      const retried = await pay(client, orderId, 'bc-retry');
      expect(retried.statusCode).toBe(201);
      expect(gateway.sales).toHaveLength(1);
    });
  },
);

describe('payments when the merchant account charges another currency than the order', () => {
  const engine = sqliteEngine();
  let sandbox: RunningSandbox;
  beforeAll(async () => {
    [sandbox] = await Promise.all([startSandboxProcess({ currency: 'USD' }), engine.setup()]);
  });
  afterAll(async () => {
    await Promise.all([sandbox?.stop(), engine.teardown()]);
  });

  it('keeps the attempt open (no second card charged) when the void cannot be confirmed', async () => {
    // Mocked: the sandbox voids any authorized sale, so its SDK client is wrapped to refuse the void, as the real
    // gateway does once a transaction is settling.
    const client = createBraintreeClient(sandbox.gateway);
    // Shaped as the SDK's failed result: its validation errors carry the gateway's code (91504).
    const refuseVoid = (async () => ({
      success: false,
      message: 'Transaction can only be voided if status is authorized or submitted_for_settlement.',
      errors: { deepErrors: () => [{ code: '91504' }] },
    })) as unknown as typeof client.transaction.void;
    const transactions = new Proxy(client.transaction, {
      get: (target, property, receiver) => (property === 'void' ? refuseVoid : Reflect.get(target, property, receiver)),
    });
    const refusing = new Proxy(client, {
      get: (target, property, receiver) => (property === 'transaction' ? transactions : Reflect.get(target, property, receiver)),
    });
    const opened = await engine.open();
    const app = await buildApp(testConfig(opened.config, sandbox.gateway), {
      database: opened.handle,
      gateway: new BraintreeGatewayAdapter(refusing),
    });
    try {
      const shopper = new TestClient(app);
      const order = await shopper.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      const orderId = order.json<{ order: { id: string } }>().order.id;
      const first = await shopper.post(
        `/api/orders/${orderId}/payments`,
        { nonce: 'fake-valid-visa-nonce', botcheck: await shopper.botcheckToken() },
        { 'idempotency-key': 'v1' },
      );
      expect(first.statusCode).toBe(502);
      const second = await shopper.post(
        `/api/orders/${orderId}/payments`,
        { nonce: 'fake-valid-mastercard-nonce', botcheck: await shopper.botcheckToken() },
        { 'idempotency-key': 'v2' },
      );
      expect(second.json()).toMatchObject({ code: 'payment_in_progress' });
      const rows = await opened.handle.db.selectFrom('payments').select(['status']).where('order_id', '=', orderId).execute();
      expect(rows).toEqual([{ status: 'pending' }]);
    } finally {
      await app.close();
      await opened.cleanup();
    }
  });

  it('voids the charge and answers a decline the shop can explain, leaving the order payable', async () => {
    const opened = await engine.open();
    const app = await buildApp(testConfig(opened.config, sandbox.gateway), { database: opened.handle });
    try {
      const client = new TestClient(app);
      const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
      const orderId = order.json<{ order: { id: string } }>().order.id;
      const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };
      const answer = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'usd' });
      expect(answer.statusCode).toBe(402);
      const problem = answer.json<{ code: string; decline: { reason: string; processorResponseText: string } }>();
      expect(problem).toMatchObject({ code: 'payment_declined', decline: { reason: 'currency_mismatch' } });
      expect(problem.decline.processorResponseText).toBe('charged in USD for an order in EUR; voided');

      const [payment] = await opened.handle.db.selectFrom('payments').selectAll().where('order_id', '=', orderId).execute();
      const transaction = await createBraintreeClient(sandbox.gateway).transaction.find(payment?.transaction_id ?? '');
      expect(transaction.status).toBe('voided');
      expect((await client.get(`/api/orders/${orderId}`)).json()).toMatchObject({ order: { status: 'pending' } });
    } finally {
      await app.close();
      await opened.cleanup();
    }
  });
});
