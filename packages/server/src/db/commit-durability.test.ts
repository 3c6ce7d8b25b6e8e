import type { FastifyInstance } from 'fastify';
import { Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DbReplayStore } from '../botcheck/replay-store.ts';
import { createBraintreeClient, BraintreeGatewayAdapter } from '../gateway/braintree.ts';
import { buildApp } from '../index.ts';
import { IdempotencyRepository } from '../payments/idempotency.repository.ts';
import { countHit } from '../plugins/rate-limit-store.ts';
import { TestClient } from '../testing/client.ts';
import { testConfig } from '../testing/config.ts';
import { postgresEngine } from '../testing/engines.ts';
import type { OpenedDatabase } from '../testing/app-per-test.ts';
import { sandboxPerFile } from '../testing/sandbox.ts';
import type { Database } from './schema.ts';

// What PostgreSQL flushes to the disk before a write returns (README, "Durability"). The test server runs with
// synchronous_commit off for speed (testing/postgres.ts); these connections ask for PostgreSQL's default, on.

const engine = postgresEngine();
let opened: OpenedDatabase;
beforeAll(async () => {
  await engine.setup();
  opened = await engine.open();
});
afterAll(async () => {
  await opened?.cleanup();
  await engine.teardown();
});

describe('a relaxed commit on PostgreSQL', () => {
  /** A database on one connection of our own, so that a transaction begun with plain SQL spans the statements. */
  async function oneConnection(): Promise<{ db: Kysely<Database>; setting: () => Promise<string>; close: () => Promise<void> }> {
    if (opened.config.engine !== 'postgres') throw new Error('postgres only');
    const client = new pg.Client({ connectionString: opened.config.url, options: '-c synchronous_commit=on' });
    await client.connect();
    const pool = { connect: async () => ({ query: client.query.bind(client), release: () => {} }), end: async () => {} };
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool: pool as never }) });
    const setting = async () =>
      (await client.query<{ synchronous_commit: string }>('show synchronous_commit')).rows[0]?.synchronous_commit ?? '';
    return { db, setting, close: () => client.end() };
  }

  it('turns synchronous_commit off for its own transaction only: a count, a spend, a claim; not an answer', async () => {
    const { db, setting, close } = await oneConnection();
    try {
      expect(await setting()).toBe('on');
      const relaxedWrites: Array<[string, () => Promise<unknown>]> = [
        ['rate-limit count', () => countHit(db, 'test-bucket', 60_000, Date.now())],
        ['bot-check spend', () => new DbReplayStore(db).consume('test-token', new Date(Date.now() + 60_000))],
        ['Idempotency-Key claim', () => new IdempotencyRepository(db).claim('test', 'key-1', 'hash')],
      ];
      for (const [name, write] of relaxedWrites) {
        await sql`begin`.execute(db);
        await write();
        expect([name, await setting()]).toEqual([name, 'off']);
        await sql`commit`.execute(db);
        // SET LOCAL ends with the transaction: the connection's next writes are flushed again.
        expect([name, await setting()]).toEqual([name, 'on']);
      }
      await sql`begin`.execute(db);
      await new IdempotencyRepository(db).complete('test', 'key-1', 201, '{}');
      expect(await setting()).toBe('on');
      await sql`commit`.execute(db);
    } finally {
      await close();
    }
  });

  it('is refused inside a transaction, whose other writes it would relax', async () => {
    await expect(
      opened.handle.db.transaction().execute((trx) => countHit(trx, 'test-bucket', 60_000, Date.now())),
    ).rejects.toThrow(/relaxed commit runs alone/);
  });
});

describe("a payment's writes on PostgreSQL", () => {
  const sandbox = sandboxPerFile();
  let app: FastifyInstance;
  beforeAll(async () => {
    // No reconciler round (every minute by default) among the payment's statements.
    app = await buildApp(testConfig(opened.config, sandbox.gateway, { reconcileIntervalMs: 0 }), {
      database: opened.handle,
      gateway: new BraintreeGatewayAdapter(createBraintreeClient(sandbox.gateway)),
    });
  });
  afterAll(async () => {
    await app?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("flush the attempt before the charge and the outcome with the key's answer (one statement) before the reply; the counts, spend and claim are relaxed", async () => {
    const client = new TestClient(app);
    const order = await client.post('/api/orders', { items: [{ productId: 'prd_mug', quantity: 1 }] });
    const orderId = order.json<{ order: { id: string } }>().order.id;
    const body = { nonce: 'fake-valid-visa-nonce', botcheck: await client.botcheckToken() };

    // Every statement pg sends during the payment (a spy that calls through: the statements run as ever).
    const texts: string[] = [];
    const query = pg.Client.prototype.query;
    vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
      const [config] = args;
      texts.push(typeof config === 'string' ? config : String((config as { text?: unknown }).text));
      return (query as (...a: unknown[]) => unknown).apply(this, args);
    } as never);
    const paid = await client.post(`/api/orders/${orderId}/payments`, body, { 'idempotency-key': 'durable-1' });
    vi.restoreAllMocks();
    expect(paid.statusCode).toBe(201);

    const writes = texts.filter((text) => /^\s*(insert|update|delete|with)\b/i.test(text));
    const describeWrite = (text: string): string => {
      const outcome = `payments outcome${/update\s+"idempotency_keys"/i.test(text) ? ' and idempotency_keys' : ''}`;
      const table = /^\s*with\b/i.test(text) ? outcome : (/(?:into|update|from)\s+"(\w+)"/i.exec(text)?.[1] ?? text);
      return `${table}${text.includes("set_config('synchronous_commit', 'off', true)") ? ' (relaxed)' : ''}`;
    };
    expect(writes.map(describeWrite)).toEqual([
      'rate_limit_hits (relaxed)',
      'idempotency_keys (relaxed)',
      'velocity_counts (relaxed)',
      'botcheck_uses (relaxed)',
      'velocity_counts (relaxed)',
      'payments',
      'payments outcome and idempotency_keys',
    ]);
  });
});
