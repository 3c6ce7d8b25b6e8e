import type { MerchantSettings } from '@kassa/sandbox';
import { currentProduct } from './products.ts';

// The sandbox gateway's merchant settings (challenges, 3-D Secure, wallets: packages/sandbox README, "Merchant
// settings"), changed while the e2e product runs through its TEST-ONLY control endpoint. Like fault rules they apply
// to the whole product they are made on: only specs under tests/gateway-faults/ (one at a time, on a product of their
// own) change them, and reset them when they end (`test.afterEach(resetSandboxSettings)`).

function settingsUrl(): string {
  return `${currentProduct().sandboxUrl}/__sandbox/settings`;
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
