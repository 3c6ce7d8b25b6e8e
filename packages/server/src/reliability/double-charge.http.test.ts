import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { BraintreeGatewayAdapter, createBraintreeClient } from '../gateway/braintree.ts';
import type { SaleInput, SaleResult } from '../gateway/gateway.ts';
import { buildApp } from '../index.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { postgresEngine } from '../testing/engines.ts';
import { DEFAULT_VELOCITY_LIMITS, scaleLimits } from '../velocity/limits.ts';
import { startSandboxProcess } from '../testing/sandbox.ts';
import type { RunningSandbox } from '../testing/sandbox.ts';

// Issue 10: two instances of the server on one PostgreSQL, the shopper's duplicate submits spread over both at once
// (the same Idempotency-Key, and other keys for the same order): every order is charged at most once at the gateway.
// Refusals are fine (409: another attempt runs, or the order is paid); a second charge is not.

/** 10 in `npm test` (100 submits); `npm run test:reliability` sets DOUBLE_CHARGE_ORDERS=100 (1,000 submits). */
const ORDERS = Number(process.env.DOUBLE_CHARGE_ORDERS ?? 10);
const SUBMITS_PER_ORDER = 10;

/** The real SDK adapter against the sandbox, keeping each charge's transaction by order. */
class ChargeLedger extends BraintreeGatewayAdapter {
  readonly charges = new Map<string, Set<string>>();
  override async sale(input: SaleInput): Promise<SaleResult> {
    const result = await super.sale(input);
    if (result.kind === 'charged')
      this.charges.set(input.orderId, (this.charges.get(input.orderId) ?? new Set()).add(result.transactionId));
    return result;
  }
}

const engine = postgresEngine();
let sandbox: RunningSandbox;
let instances: FastifyInstance[];
let ledger: ChargeLedger;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  [sandbox] = await Promise.all([startSandboxProcess(), engine.setup()]);
  const opened = await engine.open();
  // One configuration for both (the same session and bot-check secrets, as two instances behind a load balancer).
  // Every submit comes from 127.0.0.1 with one card: the per-IP and per-card velocity rules and the rate limit would
  // refuse most before they could race.
  const config = testConfig(opened.config, sandbox.gateway, {
    velocity: scaleLimits(DEFAULT_VELOCITY_LIMITS, 10_000),
    rateLimits: { paymentsPerMinute: 100_000, accountsPerMinute: 120 },
  });
  ledger = new ChargeLedger(createBraintreeClient(sandbox.gateway));
  // The second instance opens the same database itself: its own connection pool, as another process would.
  instances = [await buildApp(config, { database: opened.handle, gateway: ledger }), await buildApp(config, { gateway: ledger })];
  cleanup = async () => {
    await Promise.all(instances.map((app) => app.close()));
    await opened.cleanup();
  };
}, 120_000);
afterAll(async () => {
  await cleanup?.();
  await Promise.all([sandbox?.stop(), engine.teardown()]);
});

it(`charges each of ${ORDERS} orders at most once when ${SUBMITS_PER_ORDER} duplicate submits each race over two instances`, async () => {
  // Every submit is prepared first (order, session, solved bot-check), then all are sent at once.
  const prepared: Array<() => Promise<number>> = [];
  for (let n = 0; n < ORDERS; n += 1) {
    const client = new TestClient(instances[0] as FastifyInstance);
    const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
    const orderId = order.json<{ order: { id: string } }>().order.id;
    for (let i = 0; i < SUBMITS_PER_ORDER; i += 1) {
      // Half the submits repeat one key (a double click), the rest use keys of their own (two tabs).
      const key = i % 2 === 0 ? `order-${n}-same` : `order-${n}-tab-${i}`;
      const botcheck = await client.botcheckToken();
      const app = instances[i % 2] as FastifyInstance;
      const headers = { 'content-type': 'application/json', cookie: client.cookie ?? '', 'idempotency-key': key };
      const payload = JSON.stringify({ nonce: 'fake-valid-visa-nonce', botcheck });
      prepared.push(
        async () => (await app.inject({ method: 'POST', url: `/api/orders/${orderId}/payments`, headers, payload })).statusCode,
      );
    }
  }
  const submits = prepared.map((send) => send());
  const statuses = await Promise.all(submits);
  expect(
    statuses.every((status) => [201, 409].includes(status)),
    statuses.join(' '),
  ).toBe(true);
  expect(ledger.charges.size).toBe(ORDERS);
  for (const [orderId, transactions] of ledger.charges) expect(transactions.size, orderId).toBe(1);
}, 300_000);
