import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../testing/engines.ts';
import { migrate } from './connect.ts';

describe.each(ENGINES.map((make) => [make().name, make] as const))('database on %s', (_name, make) => {
  const engine = make();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it('migrates to the latest schema, and migrating again is a no-op', async () => {
    const { handle, cleanup } = await engine.open();
    try {
      await migrate(handle.db);
      const tables = (await handle.db.introspection.getTables()).map((t) => t.name).sort();
      expect(tables).toEqual(expect.arrayContaining(['accounts', 'botcheck_uses', 'idempotency_keys', 'order_items', 'orders', 'payments', 'products', 'sessions']));
    } finally {
      await cleanup();
    }
  });

  it('allows one live (pending or succeeded) payment per order, many declined ones', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      const now = new Date().toISOString();
      await db.insertInto('orders').values({ id: 'ord_x', status: 'pending', total_amount: 100, currency: 'EUR', owner_account_id: null, owner_session_id: 'ses_x', created_at: now, updated_at: now }).execute();
      const payment = (id: string, status: string) => ({
        id, order_id: 'ord_x', status, amount: 100, currency: 'EUR', idempotency_ref: null, nonce: `fake-nonce-${id}`, device_data: null, merchant_account_id: null, transaction_id: null, card_brand: null, card_last_four: null,
        decline_reason: null, processor_response_code: null, processor_response_text: null, gateway_rejection_reason: null, created_at: now, updated_at: now,
      });
      await db.insertInto('payments').values([payment('pay_1', 'declined'), payment('pay_2', 'declined'), payment('pay_3', 'pending')]).execute();
      const second = await db.insertInto('payments').values(payment('pay_4', 'succeeded')).onConflict((oc) => oc.doNothing()).executeTakeFirst();
      expect(Number(second.numInsertedOrUpdatedRows)).toBe(0);
    } finally {
      await cleanup();
    }
  });
});
