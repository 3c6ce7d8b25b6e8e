import { defineConfig } from '@playwright/test';
import { chromiumArgs } from './support/chromium.ts';

export default defineConfig({
  testDir: './tests',
  globalSetup: './support/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  workers: 2,
  retries: 0,
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    baseURL: process.env.KASSA_SHOP_URL,
    launchOptions: { executablePath: process.env.KASSA_CHROMIUM, args: chromiumArgs },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'shopper', testIgnore: [/audit\.spec\.ts/, /gateway-faults\//] },
    // Sandbox fault rules apply to every request of the one running product: these specs run alone, one at a time.
    { name: 'gateway-faults', testMatch: /gateway-faults\/.*\.spec\.ts/, dependencies: ['shopper'], workers: 1 },
    // Runs after every other test, over what they left in the database and the server log.
    { name: 'audit', testMatch: /audit\.spec\.ts/, dependencies: ['shopper', 'gateway-faults'] },
  ],
});
