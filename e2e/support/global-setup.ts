import { chromiumExecutable } from './chromium.ts';
import { startProduct, suiteEnv } from './product.ts';
import { productEnv } from './products.ts';

// Starts the three Kassas of the run (support/products.ts); workers inherit these variables. The other two serve the
// web app the first built.
export default async function globalSetup(): Promise<() => Promise<void>> {
  process.env.KASSA_CHROMIUM = await chromiumExecutable();
  const shop = await startProduct(suiteEnv);
  const started = await Promise.allSettled([
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
  ]);
  const [faults, settings] = started.map((start) => (start.status === 'fulfilled' ? start.value : undefined));
  if (faults === undefined || settings === undefined) {
    // The run ends here: the Kassas that did start are stopped, not left running (and using the cores) after it.
    await Promise.all([shop.stop(), faults?.stop(), settings?.stop()]);
    throw started.find((start) => start.status === 'rejected')?.reason;
  }
  Object.assign(process.env, productEnv('shop', shop), productEnv('faults', faults), productEnv('settings', settings));
  return async () => {
    await Promise.all([shop.stop(), faults.stop(), settings.stop()]);
  };
}
