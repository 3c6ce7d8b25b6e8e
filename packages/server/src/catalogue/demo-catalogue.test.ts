import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINES } from '../testing/engines.ts';
import { DEMO_PRODUCTS, seedDemoCatalogue } from './demo-catalogue.ts';

describe.each(ENGINES.map((make) => [make().name, make] as const))('demo catalogue on %s', (_name, make) => {
  const engine = make();
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());

  it('replaces a description an earlier version seeded, keeps one the merchant edited, and speaks of no sandbox', async () => {
    const { handle, cleanup } = await engine.open();
    const { db } = handle;
    try {
      await seedDemoCatalogue(db);
      const earlier = 'Dual boiler, PID control. Priced at 2000.00 EUR: the sandbox declines it.';
      await db.updateTable('products').set({ description: earlier }).where('id', '=', 'prd_espressomachine').execute();
      await db.updateTable('products').set({ description: 'Our own words.' }).where('id', '=', 'prd_mug').execute();
      await seedDemoCatalogue(db);
      const rows = await db.selectFrom('products').select(['id', 'description']).execute();
      const description = (id: string) => rows.find((row) => row.id === id)?.description;
      expect(description('prd_espressomachine')).toBe(DEMO_PRODUCTS.find((p) => p.id === 'prd_espressomachine')?.description);
      expect(description('prd_mug')).toBe('Our own words.');
      for (const row of rows) expect(row.description).not.toMatch(/sandbox|declin/i);
    } finally {
      await cleanup();
    }
  });
});
