import { chromiumExecutable } from './chromium.ts';
import { startProduct, suiteEnv } from './product.ts';
import { productEnv } from './products.ts';

// Starts the three Kassas of the run (support/products.ts); workers inherit these variables. The other two serve the
// web app the first built.
export default async function globalSetup(): Promise<() => Promise<void>> {
  process.env.KASSA_CHROMIUM = await chromiumExecutable();
  const shop = await startProduct(suiteEnv);
  const [faults, settings] = await Promise.all([
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
  ]);
  Object.assign(process.env, productEnv('shop', shop), productEnv('faults', faults), productEnv('settings', settings));
  return async () => {
    await Promise.all([shop.stop(), faults.stop(), settings.stop()]);
  };
}
