import { chromiumExecutable } from './chromium.ts';
import { startProduct } from './product.ts';

// Starts Kassa once for the whole run; workers inherit these variables.
export default async function globalSetup(): Promise<() => Promise<void>> {
  process.env.KASSA_CHROMIUM = await chromiumExecutable();
  const product = await startProduct();
  process.env.KASSA_SHOP_URL = product.shopUrl;
  process.env.KASSA_SANDBOX_URL = product.sandboxUrl;
  process.env.KASSA_DATABASE_FILE = product.databaseFile;
  process.env.KASSA_LOG_FILE = product.logFile;
  return product.stop;
}
