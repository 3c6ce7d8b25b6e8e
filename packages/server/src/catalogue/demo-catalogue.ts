import type { Db } from '../db/connect.ts';
import type { ProductRow } from '../db/schema.ts';

/**
 * The demo shop. Fixed ids so links and tests stay stable across restarts. The espresso machine costs exactly
 * 2000.00 EUR: the gateway's sandbox declines that amount (processor response 2000, "Do Not Honor").
 */
export const DEMO_PRODUCTS: readonly ProductRow[] = [
  { id: 'prd_coffeebeans', name: 'Coffee beans, 1 kg', description: 'Single-origin beans, medium roast.', price_amount: 2450, currency: 'EUR', position: 1 },
  { id: 'prd_mug', name: 'Kassa mug', description: 'Stoneware mug, 330 ml.', price_amount: 1200, currency: 'EUR', position: 2 },
  { id: 'prd_grinder', name: 'Burr grinder', description: 'Conical burrs, 40 grind settings.', price_amount: 18900, currency: 'EUR', position: 3 },
  { id: 'prd_espressomachine', name: 'Espresso machine', description: 'Dual boiler, PID control. Priced at 2000.00 EUR: the sandbox declines it.', price_amount: 200000, currency: 'EUR', position: 4 },
];

/** Inserts missing demo products; leaves existing ones as they are (a merchant may have edited them). */
export async function seedDemoCatalogue(db: Db): Promise<void> {
  await db.insertInto('products').values([...DEMO_PRODUCTS]).onConflict((oc) => oc.doNothing()).execute();
}
