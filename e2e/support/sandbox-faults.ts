import type { FaultRule, FaultSpec } from '@kassa/sandbox';
import { currentProduct } from './products.ts';

// The sandbox gateway's TEST-ONLY fault controls (packages/sandbox README, "Fault injection"), turned on for the e2e
// run by support/product.ts. Rules are global to the product they are made on: only specs under tests/gateway-faults/
// use them, on the product of their own (support/products.ts), one at a time, and clear them when they end
// (`test.afterEach(clearSandboxFaults)`).

function faultsUrl(): string {
  return `${currentProduct().sandboxUrl}/__sandbox/faults`;
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
