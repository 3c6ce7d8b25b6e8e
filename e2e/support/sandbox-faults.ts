import type { FaultRule, FaultSpec } from '@kassa/sandbox';

// The sandbox gateway's TEST-ONLY fault controls (packages/sandbox README, "Fault injection"), turned on for the e2e
// run by support/product.ts. Rules are global to the one running product: a spec that injects faults clears them
// when it ends (`test.afterEach(clearSandboxFaults)`), and such specs must not run in parallel with others.

function faultsUrl(): string {
  const origin = process.env.KASSA_SANDBOX_URL;
  if (!origin) throw new Error('KASSA_SANDBOX_URL is not set: run the specs through e2e/playwright.config.ts');
  return `${origin}/__sandbox/faults`;
}

/** Makes the next matching requests fail, e.g. `{ target: 'tokenization', fault: { type: 'status', status: 429 } }`. */
export async function injectSandboxFault(spec: FaultSpec): Promise<FaultRule> {
  const response = await fetch(faultsUrl(), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  if (response.status !== 201) throw new Error(`sandbox refused the fault: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { fault: FaultRule }).fault;
}

export async function clearSandboxFaults(): Promise<void> {
  const response = await fetch(faultsUrl(), { method: 'DELETE' });
  if (response.status !== 204) throw new Error(`sandbox did not clear its faults: ${response.status}`);
}
