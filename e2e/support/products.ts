import { test } from '@playwright/test';

// The e2e run starts three Kassas (support/global-setup.ts): the shoppers' one, and two for the specs that inject
// gateway faults or change the sandbox merchant's settings (tests/gateway-faults/, split between the two in
// playwright.config.ts). Those apply to every request of the product they are made on, so giving them their own lets
// them run beside the shopper specs instead of after them.

export interface ProductUnderTest {
  readonly shopUrl: string;
  readonly sandboxUrl: string;
  readonly databaseFile: string;
  readonly logFile: string;
}

export type ProductName = 'shop' | 'faults' | 'settings';

const envPrefix: Record<ProductName, string> = { shop: 'KASSA_', faults: 'KASSA_FAULTS_', settings: 'KASSA_SETTINGS_' };

/** The environment variables that hand a product's addresses from the global setup to the workers. */
export function productEnv(name: ProductName, product: ProductUnderTest): Record<string, string> {
  const prefix = envPrefix[name];
  return {
    [`${prefix}SHOP_URL`]: product.shopUrl,
    [`${prefix}SANDBOX_URL`]: product.sandboxUrl,
    [`${prefix}DATABASE_FILE`]: product.databaseFile,
    [`${prefix}LOG_FILE`]: product.logFile,
  };
}

export function product(name: ProductName): ProductUnderTest {
  const read = (key: string): string => {
    const value = process.env[`${envPrefix[name]}${key}`];
    if (!value) throw new Error(`${envPrefix[name]}${key} is not set: run the specs through e2e/playwright.config.ts`);
    return value;
  };
  return {
    shopUrl: read('SHOP_URL'),
    sandboxUrl: read('SANDBOX_URL'),
    databaseFile: read('DATABASE_FILE'),
    logFile: read('LOG_FILE'),
  };
}

/** The product the running test's project drives (its `metadata.product` in playwright.config.ts). */
export function currentProduct(): ProductUnderTest {
  return product((test.info().project.metadata.product as ProductName | undefined) ?? 'shop');
}
