import type { Db } from '../db/connect.ts';
import type { PlanRow, ProductRow } from '../db/schema.ts';

/**
 * The demo shop. Fixed ids so links and tests stay stable across restarts. The espresso machine costs exactly
 * 2000.00 EUR: the gateway's sandbox declines that amount (processor response 2000, "Do Not Honor"); the web app says
 * so in its sandbox-only banner, never in a product's description.
 */
export const DEMO_PRODUCTS: readonly ProductRow[] = [
  {
    id: 'prd_coffeebeans',
    name: 'Coffee beans, 1 kg',
    description: 'Single-origin beans, medium roast, with notes of apricot and cocoa. Roasted every week.',
    price_amount: 2450,
    currency: 'EUR',
    position: 1,
  },
  {
    id: 'prd_mug',
    name: 'Kassa mug',
    description: 'Stoneware mug, 330 ml, glazed by hand. Dishwasher safe.',
    price_amount: 1200,
    currency: 'EUR',
    position: 2,
  },
  {
    id: 'prd_grinder',
    name: 'Burr grinder',
    description: 'Conical steel burrs and 40 grind settings, from espresso to French press.',
    price_amount: 18900,
    currency: 'EUR',
    position: 3,
  },
  {
    id: 'prd_espressomachine',
    name: 'Espresso machine',
    description: 'Dual boiler with PID temperature control, for café-quality espresso at home.',
    price_amount: 200000,
    currency: 'EUR',
    position: 4,
  },
];

/** The sandbox gateway's seeded plan (`coffee-monthly`, packages/sandbox README "Plans and subscriptions"), same price. */
export const DEMO_PLANS: readonly PlanRow[] = [
  {
    id: 'coffee-monthly',
    name: 'Coffee beans, 1 kg, every month',
    description: 'Freshly roasted single-origin beans at your door each month. Cancel any time.',
    price_amount: 2450,
    currency: 'EUR',
    billing_frequency_months: 1,
    position: 1,
  },
];

/** Descriptions earlier versions seeded; replaced where still unchanged (one of them spoke of the sandbox). */
const EARLIER_DESCRIPTIONS: Readonly<Record<string, string>> = {
  prd_coffeebeans: 'Single-origin beans, medium roast.',
  prd_mug: 'Stoneware mug, 330 ml.',
  prd_grinder: 'Conical burrs, 40 grind settings.',
  prd_espressomachine: 'Dual boiler, PID control. Priced at 2000.00 EUR: the sandbox declines it.',
};

/** Inserts missing demo products and plans; leaves edited ones as they are (a merchant may have changed them). */
export async function seedDemoCatalogue(db: Db): Promise<void> {
  await db
    .insertInto('products')
    .values([...DEMO_PRODUCTS])
    .onConflict((oc) => oc.doNothing())
    .execute();
  await db
    .insertInto('plans')
    .values([...DEMO_PLANS])
    .onConflict((oc) => oc.doNothing())
    .execute();
  for (const product of DEMO_PRODUCTS) {
    const earlier = EARLIER_DESCRIPTIONS[product.id];
    if (earlier === undefined) continue;
    await db
      .updateTable('products')
      .set({ description: product.description })
      .where('id', '=', product.id)
      .where('description', '=', earlier)
      .execute();
  }
}
