import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildStartBundle } from '../../scripts/start-bundle.ts';
import { standinMain } from './botcheck-provider.ts';
import { chromiumExecutable } from './chromium.ts';
import { startProduct, suiteEnv } from './product.ts';
import { productEnv } from './products.ts';

const root = join(import.meta.dirname, '..', '..');

// Starts the three Kassas of the run (support/products.ts); workers inherit these variables. The other two serve the
// web app the first built. Every Kassa of the run starts from one bundle of the start script (support/product.ts), and
// every bot-check stand-in from one of its own (support/botcheck-provider.ts), built here in the repository's .tmp
// (their imports of third-party packages find the root's node_modules) and removed at the end.
export default async function globalSetup(): Promise<() => Promise<void>> {
  process.env.KASSA_CHROMIUM = await chromiumExecutable();
  mkdirSync(join(root, '.tmp'), { recursive: true });
  const bundleDir = mkdtempSync(join(root, '.tmp', 'e2e-start-'));
  process.env.KASSA_START_BUNDLE = join(bundleDir, 'start.mjs');
  process.env.KASSA_STANDIN_BUNDLE = join(bundleDir, 'botcheck-standin.mjs');
  const removeBundle = () => rmSync(bundleDir, { recursive: true, force: true });
  const shop = await Promise.all([
    buildStartBundle(join(root, 'scripts', 'start.ts'), process.env.KASSA_START_BUNDLE),
    buildStartBundle(join(root, standinMain), process.env.KASSA_STANDIN_BUNDLE),
  ])
    .then(() => startProduct(suiteEnv))
    .catch((error: unknown) => {
      removeBundle();
      throw error;
    });
  const started = await Promise.allSettled([
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
    startProduct({ ...suiteEnv, WEB_DIST: shop.webDist }),
  ]);
  const [faults, settings] = started.map((start) => (start.status === 'fulfilled' ? start.value : undefined));
  if (faults === undefined || settings === undefined) {
    // The run ends here: the Kassas that did start are stopped, not left running (and using the cores) after it.
    await Promise.all([shop.stop(), faults?.stop(), settings?.stop()]);
    removeBundle();
    throw started.find((start) => start.status === 'rejected')?.reason;
  }
  Object.assign(process.env, productEnv('shop', shop), productEnv('faults', faults), productEnv('settings', settings));
  return async () => {
    await Promise.all([shop.stop(), faults.stop(), settings.stop()]);
    removeBundle();
  };
}
