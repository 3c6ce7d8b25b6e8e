import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseConfig } from '../config.ts';
import type { Db } from '../db/connect.ts';
import { createBraintreeClient } from '../gateway/braintree.ts';
import { ENGINES } from '../testing/engines.ts';
import { CHARGED_AT_GATEWAY, gatewayTransactions } from '../testing/gateway-transactions.ts';
import { HttpClient } from '../testing/http-client.ts';
import type { TestEngine } from '../testing/engines.ts';
import { freePort } from '../testing/postgres.ts';
import { gatewayEnv, startSandboxProcess } from '../testing/sandbox.ts';
import type { RunningSandbox } from '../testing/sandbox.ts';
import { ServerProcess } from '../testing/server-process.ts';

// Issue 10: `kill -9` of the server at random points in a stream of payments, each time started again on the same
// database; then the reconciler runs. Checked against the database AND the sandbox gateway's own records:
// - nothing lost: every payment answered 201 (or 402) is recorded so, on its order;
// - nothing stuck: no attempt is left pending, and a shopper's retry with the same Idempotency-Key gets the truth;
// - nothing charged without the order knowing: every sale the gateway charged is one order's succeeded attempt with
//   that transaction, the order paid, and no order charged twice;
// - every decline counted once by the velocity rules, with its card, whoever finished its attempt.
// Minutes long: `npm run test:reliability` sets CRASH_PAYMENTS=500; `npm test` leaves it unset and skips this file.

const PAYMENTS = Number(process.env.CRASH_PAYMENTS ?? 0);
/** Payments in flight at once (shoppers paying at the same time). */
const CONCURRENCY = 8;
/** About this many kills over the stream: each life sends a random number of payments (1 to twice the mean)... */
const KILLS = Number(process.env.CRASH_KILLS ?? 20);
/** ... then dies a random moment after its last one was sent (below this), so kills land at every step of a payment. */
const MAX_KILL_DELAY_MS = 50;
/** Every tenth order is the espresso machine, whose amount the sandbox declines: declines must survive crashes too. */
const DECLINED_EVERY = 10;
/** The SDK's limit per gateway call (GATEWAY_TIMEOUT_SECONDS): an attempt is stale after 3 x this + 15 s. */
const GATEWAY_TIMEOUT_SECONDS = 2;
const SEED = Number(process.env.CRASH_SEED ?? Date.now() % 2 ** 31);
/**
 * 500 payments (test:reliability) took 899 s and more than 900 s at a load average of 10 to 27, about 20 starts of the
 * server among them: a fixed 15 minutes cut the SQLite run short.
 */
const TIME_LIMIT_MS = Math.max(900_000, PAYMENTS * 5000);
/** A start of the server may take this long: 20 or so starts on a busy machine, among other suites' processes. */
const START_TIMEOUT_MS = 120_000;

/** A small seeded generator (mulberry32): a failing run can be repeated with CRASH_SEED. */
function randomFrom(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Outcome =
  | { kind: 'answered'; status: number; paymentId: string | null; code: string | null }
  /**
   * The shopper saw an error and no outcome: the connection broke (the server died with the request), was refused (it
   * was down), or the answer was a 5xx (the gateway's answer did not come back in time: retry with the same key).
   */
  | { kind: 'unanswered' };

interface Attempt {
  n: number;
  orderId: string;
  key: string;
  cookie: string;
  declines: boolean;
  outcome: Outcome;
}

/** Thrown when the server is not there: the caller waits for the next start and goes on. */
class ServerDown extends Error {}

/** A shopper over real HTTP whose server may be down: any failure to get a whole answer is ServerDown. */
class Shopper extends HttpClient {
  override async send(method: 'GET' | 'POST', path: string, body?: unknown, headers: Record<string, string> = {}) {
    try {
      return await super.send(method, path, body, headers);
    } catch {
      throw new ServerDown(); // refused, or the connection or the body cut by the kill
    }
  }

  /** `sending` runs just before the payment is posted. */
  async pay(orderId: string, key: string, sending: () => void = () => {}): Promise<Outcome> {
    const botcheck = await this.botcheck();
    sending();
    try {
      const { status, json } = await this.send(
        'POST',
        `/api/orders/${orderId}/payments`,
        { nonce: 'fake-valid-visa-nonce', botcheck },
        { 'idempotency-key': key },
      );
      if (status >= 500) return { kind: 'unanswered' };
      const payment = json.payment as { id?: string } | undefined;
      return { kind: 'answered', status, paymentId: payment?.id ?? null, code: typeof json.code === 'string' ? json.code : null };
    } catch (error) {
      if (error instanceof ServerDown) return { kind: 'unanswered' };
      throw error;
    }
  }
}

describe.skipIf(PAYMENTS === 0).each(ENGINES.map((make) => [make().name, make] as const))(
  'kill -9 during a stream of payments on %s',
  (_name, make) => {
    const engine: TestEngine = make();
    let sandbox: RunningSandbox;
    let database: { config: DatabaseConfig; handle: { db: Db }; cleanup(): Promise<void> };
    let server: ServerProcess;

    beforeAll(async () => {
      [sandbox] = await Promise.all([startSandboxProcess(), engine.setup()]);
      database = await engine.open();
    }, 120_000);
    afterAll(async () => {
      await server?.stop();
      await database?.cleanup();
      await Promise.all([sandbox?.stop(), engine.teardown()]);
    });

    it(`loses, strands and double-charges nothing over ${PAYMENTS} payments (seed ${SEED})`, {
      timeout: TIME_LIMIT_MS,
    }, async () => {
      const random = randomFrom(SEED);
      const port = await freePort();
      const { gateway } = sandbox;
      const databaseUrl = database.config.engine === 'sqlite' ? database.config.file : database.config.url;
      server = new ServerProcess(
        {
          PORT: String(port),
          HOST: '127.0.0.1',
          DATABASE_URL: databaseUrl,
          ...gatewayEnv(gateway),
          GATEWAY_TIMEOUT_SECONDS: String(GATEWAY_TIMEOUT_SECONDS),
          // The same secrets at every start: sessions and bot-check challenges outlive the process, as in production.
          SESSION_SECRET: 'crash-test-session-secret-0123456789abcdef',
          BOTCHECK_SECRET: 'crash-test-botcheck-secret-0123456789abcdef',
          BOTCHECK_ON: 'payment',
          BOTCHECK_MAX_COUNTER: '1000',
          RECONCILE_INTERVAL_SECONDS: '1',
          // One client address pays for everyone here: the per-address limits would refuse most of the stream.
          RATE_LIMIT_PAYMENTS_PER_MINUTE: '100000',
          RATE_LIMIT_ACCOUNTS_PER_MINUTE: '100000',
          VELOCITY_LIMIT_FACTOR: '10000',
          LOG_LEVEL: 'warn',
          DEMO_SEED: 'true',
        },
        join(process.env.CRASH_LOG_DIR ?? tmpdir(), `kassa-crash-${database.config.engine}-${process.pid}.log`),
      );
      const started = new Date(Date.now() - 1000);
      let url = await server.start(START_TIMEOUT_MS);
      let up: Promise<void> = Promise.resolve();

      // The killer: after a random number of payments sent in this life, and a random moment after the last, kill -9
      // and start again, until the stream is over. Counting payments rather than time keeps the kills within the
      // stream however slowly the server starts on a busy machine.
      let streaming = true;
      let kills = 0;
      /** How long each start after a kill took (a busy machine makes them slow). */
      const startSeconds: number[] = [];
      let sentThisLife = 0;
      let killPoint = 0;
      let armed: () => void = () => {};
      const paymentSent = (): void => {
        sentThisLife += 1;
        if (sentThisLife === killPoint) armed();
      };
      const killer = (async () => {
        for (;;) {
          sentThisLife = 0;
          killPoint = 1 + Math.floor((random() * 2 * PAYMENTS) / KILLS);
          await new Promise<void>((resolve) => {
            armed = resolve;
          });
          if (!streaming) break;
          await new Promise((resolve) => setTimeout(resolve, random() * MAX_KILL_DELAY_MS));
          const restart = server.kill().then(async () => {
            kills += 1;
            const starting = Date.now();
            const address = await server.start(START_TIMEOUT_MS);
            startSeconds.push((Date.now() - starting) / 1000);
            return address;
          });
          // The shoppers wait for this start; if it fails, so do they, and the test with its reason (a start that
          // failed left them waiting until the test's time limit, with the reason an unhandled rejection).
          up = restart.then((started) => {
            url = started;
          });
          await up;
        }
      })();
      killer.catch(() => {}); // awaited after the stream; its failure reaches the shoppers through `up` first

      /** Runs a step against whichever server is up, waiting out the restarts (orders and challenges are not the test). */
      const untilUp = async <T>(step: () => Promise<T>): Promise<T> => {
        for (;;) {
          try {
            return await step();
          } catch (error) {
            if (!(error instanceof ServerDown)) throw error;
            await up;
          }
        }
      };

      const attempts: Attempt[] = [];
      let next = 0;
      const shopperLoop = async (): Promise<void> => {
        const shopper = new Shopper(() => url);
        for (let n = next++; n < PAYMENTS; n = next++) {
          const declines = n % DECLINED_EVERY === DECLINED_EVERY - 1;
          const productId = declines ? 'prd_espressomachine' : 'prd_mug';
          const order = await untilUp(() => shopper.send('POST', '/api/orders', { items: [{ productId, quantity: 1 }] }));
          expect(order.status, JSON.stringify(order.json)).toBe(201);
          const orderId = (order.json.order as { id: string }).id;
          const key = `crash-${n}`;
          const outcome = await untilUp(() => shopper.pay(orderId, key, paymentSent));
          attempts.push({ n, orderId, key, cookie: shopper.cookie, declines, outcome });
          if (outcome.kind === 'unanswered') await up;
        }
      };
      await Promise.all(Array.from({ length: CONCURRENCY }, shopperLoop));
      streaming = false;
      armed();
      await killer;
      await up;

      const { db } = database.handle;
      const pendingAfterStream = await countPending(db);

      // Half the shoppers who saw an error retry with the same key (a fresh bot-check token); the reconciler finishes
      // the rest. A retry is told to wait (409) while the dead request's attempt is not yet stale.
      const unanswered = attempts.filter((a) => a.outcome.kind === 'unanswered');
      const retried = unanswered.filter((a) => a.n % 2 === 0);
      const retries = new Map<number, Outcome>();
      await Promise.all(
        retried.map(async (attempt) => {
          const shopper = new Shopper(() => url);
          shopper.cookie = attempt.cookie;
          for (;;) {
            const outcome = await shopper.pay(attempt.orderId, attempt.key);
            const waitAndRetry =
              outcome.kind === 'answered' && ['payment_in_progress', 'idempotency_key_in_use'].includes(outcome.code ?? '');
            if (!waitAndRetry) {
              retries.set(attempt.n, outcome);
              return;
            }
            await new Promise((resolve) => setTimeout(resolve, 1000));
          }
        }),
      );
      // The reconciler takes what no retry did, once stale (3 x GATEWAY_TIMEOUT_SECONDS + 15 s).
      const settledBy = Date.now() + (3 * GATEWAY_TIMEOUT_SECONDS + 15) * 1000 + 30_000;
      while ((await countPending(db)) > 0 && Date.now() < settledBy) await new Promise((resolve) => setTimeout(resolve, 500));
      const settledAfterMs = Date.now() - started.getTime();

      // The stream was cut: the server was killed, and some payment with it (otherwise nothing below was tried).
      expect(kills, 'kill -9 during the stream').toBeGreaterThan(0);
      expect(unanswered.length, 'payments cut off by a kill').toBeGreaterThan(0);
      // Nothing stuck.
      expect(await countPending(db), 'attempts still pending after the reconciler').toBe(0);
      const orderIds = attempts.map((a) => a.orderId);
      const payments = await db.selectFrom('payments').selectAll().where('order_id', 'in', orderIds).execute();
      const orders = new Map(
        (await db.selectFrom('orders').select(['id', 'status']).where('id', 'in', orderIds).execute()).map((o) => [
          o.id,
          o.status,
        ]),
      );

      // Nothing lost: every answer the shopper got is what the database holds, and so is every retry's.
      const paymentById = new Map(payments.map((p) => [p.id, p]));
      for (const attempt of attempts) {
        const outcome = retries.get(attempt.n) ?? attempt.outcome;
        if (outcome.kind === 'unanswered') continue;
        const label = `payment ${attempt.n} (order ${attempt.orderId}) answered ${outcome.status} ${outcome.code ?? ''}`;
        if (attempt.declines) {
          expect(outcome.status, label).toBe(402);
          expect(paymentById.get(outcome.paymentId ?? '')?.status, label).toBe('declined');
          expect(orders.get(attempt.orderId), label).toBe('pending');
        } else {
          expect(outcome.status, label).toBe(201);
          expect(paymentById.get(outcome.paymentId ?? '')?.status, label).toBe('succeeded');
          expect(orders.get(attempt.orderId), label).toBe('paid');
        }
      }

      // Nothing charged without the order knowing: the gateway's own records against the database.
      const client = createBraintreeClient(gateway);
      const sales = (await gatewayTransactions(client, started)).filter((t) => t.type === 'sale' && orders.has(t.orderId ?? ''));
      const charged = sales.filter((t) => CHARGED_AT_GATEWAY.has(t.status));
      const chargesPerOrder = new Map<string, string[]>();
      for (const sale of charged) {
        const orderId = sale.orderId ?? '';
        chargesPerOrder.set(orderId, [...(chargesPerOrder.get(orderId) ?? []), sale.id]);
      }
      for (const [orderId, transactions] of chargesPerOrder) {
        expect(transactions, `order ${orderId} charged more than once`).toHaveLength(1);
        const recorded = payments.find((p) => p.transaction_id === transactions[0]);
        expect(recorded?.status, `transaction ${transactions[0]} of order ${orderId}`).toBe('succeeded');
        expect(orders.get(orderId), `order ${orderId} charged at the gateway`).toBe('paid');
      }
      // ... and every success the database holds is a charge at the gateway.
      const succeeded = payments.filter((p) => p.status === 'succeeded');
      for (const payment of succeeded)
        expect(chargesPerOrder.get(payment.order_id), payment.id).toEqual([payment.transaction_id]);
      expect(attempts.filter((a) => a.declines).every((a) => !chargesPerOrder.has(a.orderId))).toBe(true);

      // Every decline counted once by the velocity rules, against its order, payer, card and the shop, whichever
      // request or job recorded it: its own, a retry, another instance's reconciler after a kill.
      const declined = payments.filter((p) => p.status === 'declined').length;
      const counted = await db
        .selectFrom('velocity_counts')
        .select((eb) => ['dimension', eb.fn.sum<string | number>('count').as('count')])
        .where('action', '=', 'decline')
        .groupBy('dimension')
        .execute();
      const dimensions = ['order', 'session', 'ip', 'card', 'card_digits', 'bin', 'shop'];
      const countedBy = new Map(counted.map((row) => [row.dimension, Number(row.count)]));
      expect(Object.fromEntries(dimensions.map((d) => [d, countedBy.get(d) ?? 0])), 'declines counted').toEqual(
        Object.fromEntries(dimensions.map((d) => [d, declined])),
      );

      const answered = attempts.length - unanswered.length;
      console.log(
        `kill -9 on ${database.config.engine} (seed ${SEED}): ${kills} kills during ${PAYMENTS} payments; ${answered} answered, ` +
          `${unanswered.length} cut off (${retried.length} retried by the shopper), ${pendingAfterStream} attempts pending ` +
          `after the stream; all settled ${Math.round(settledAfterMs / 1000)} s after the start: ${succeeded.length} paid ` +
          `orders, ${charged.length} charges and ${sales.length - charged.length} declines at the gateway; the longest ` +
          `start after a kill took ${Math.max(0, ...startSeconds).toFixed(1)} s`,
      );
    });
  },
);

async function countPending(db: Db): Promise<number> {
  const row = await db
    .selectFrom('payments')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('status', '=', 'pending')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
