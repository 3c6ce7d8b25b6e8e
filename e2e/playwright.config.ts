import { defineConfig } from '@playwright/test';
import { chromiumLaunchOptions } from './support/chromium.ts';

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  // Two more than the 2 cores of CI's machine: a test spends much of its time waiting on a server or a browser (at three
  // workers, each was busy the whole run while the run used about half of the cores' time), and three of the workers
  // take the gateway specs' chains and the site-isolation spec (projects below) from the start.
  workers: 4,
  retries: 0,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    baseURL: process.env.KASSA_SHOP_URL,
    launchOptions: chromiumLaunchOptions(),
    // Recording a trace for every test costs about 30% more CPU and CI cannot hand traces back: run with
    // `--trace retain-on-failure` to keep one of a failing test.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    // Sandbox fault rules and merchant settings apply to every request of the product they are made on: the specs under
    // gateway-faults/ drive products of their own (support/products.ts), each project one test at a time, beside the
    // shopper specs. Two such products split them into two shorter chains (one was the run's longest): the specs that
    // turn the wallets or 3-D Secure on, and the rest. Listed first so they are queued first: a worker each runs them
    // from the start while the others take the shopper specs (a job whose project is at its worker limit is skipped,
    // not waited for).
    {
      name: 'gateway-faults',
      testMatch: /gateway-faults\/.*\.spec\.ts/,
      testIgnore: /gateway-faults\/(wallets|three-d-secure)\.spec\.ts/,
      workers: 1,
      metadata: { product: 'faults' },
      use: { baseURL: process.env.KASSA_FAULTS_SHOP_URL },
    },
    {
      name: 'gateway-settings',
      testMatch: /gateway-faults\/(wallets|three-d-secure)\.spec\.ts/,
      workers: 1,
      metadata: { product: 'settings' },
      use: { baseURL: process.env.KASSA_SETTINGS_SHOP_URL },
    },
    // checkout-frame.spec's browser keeps site isolation, so its tests need a worker of their own: queued here, it runs
    // beside the gateway chains from the start instead of alone at the run's end.
    { name: 'site-isolation', testMatch: /checkout-frame\.spec\.ts/, workers: 1 },
    // Test by test, not file by file, so the run does not end on one worker finishing a long file while the others
    // idle. A file whose tests share an expensive start (a bot-check provider's Kassa) keeps them in one worker.
    {
      name: 'shopper',
      testIgnore: [/audit\.spec\.ts/, /gateway-faults\//, /checkout-frame\.spec\.ts/],
      fullyParallel: true,
    },
    // Runs after every other test, over what they left in the database and the server log.
    {
      name: 'audit',
      testMatch: /audit\.spec\.ts/,
      dependencies: ['shopper', 'site-isolation', 'gateway-faults', 'gateway-settings'],
    },
  ],
});
