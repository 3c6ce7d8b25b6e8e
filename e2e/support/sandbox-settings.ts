import type { MerchantSettings } from '@kassa/sandbox';

// The sandbox gateway's merchant settings (challenges, 3-D Secure, wallets: packages/sandbox README, "Merchant
// settings"), changed while the e2e product runs through its TEST-ONLY control endpoint. Like fault rules they apply
// to the whole running product: only specs under tests/gateway-faults/ (run alone) change them, and reset them
// when they end (`test.afterEach(resetSandboxSettings)`).

function settingsUrl(): string {
  const origin = process.env.KASSA_SANDBOX_URL;
  if (!origin) throw new Error('KASSA_SANDBOX_URL is not set: run the specs through e2e/playwright.config.ts');
  return `${origin}/__sandbox/settings`;
}

export async function changeSandboxSettings(changes: Partial<MerchantSettings>): Promise<MerchantSettings> {
  const response = await fetch(settingsUrl(), {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(changes),
  });
  if (!response.ok) throw new Error(`sandbox refused the settings: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { settings: MerchantSettings }).settings;
}

export async function resetSandboxSettings(): Promise<void> {
  const response = await fetch(settingsUrl(), { method: 'DELETE' });
  if (!response.ok) throw new Error(`sandbox did not reset its settings: ${response.status}`);
}
