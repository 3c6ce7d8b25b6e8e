import type { Page } from '@playwright/test';

/**
 * Holds back the card rules each frame imports as it announces itself ready (the sandbox's validate.js) until the
 * returned function lets them through: a Pay then waits for them (its `sync`), the sheet busy meanwhile.
 */
export async function holdCardRules(page: Page): Promise<() => void> {
  let release = (): void => undefined;
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/hosted-fields/validate.js*', async (route) => {
    await held;
    await route.continue();
  });
  return release;
}
