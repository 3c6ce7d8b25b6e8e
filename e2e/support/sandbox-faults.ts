import type { FaultRule, FaultSpec } from '@kassa/sandbox';
import * as faults from '../../packages/sandbox/src/testing/faults-client.ts';
import { currentProduct } from './products.ts';

// The sandbox gateway's TEST-ONLY fault controls (packages/sandbox README, "Fault injection"), turned on for the e2e
// run by support/product.ts. Rules are global to the product they are made on: only specs under tests/gateway-faults/
// use them, on the product of their own (support/products.ts), one at a time, and clear them when they end
// (`test.afterEach(clearSandboxFaults)`).

/** Makes the next matching requests fail, e.g. `{ target: 'tokenization', fault: { type: 'status', status: 429 } }`. */
export function injectSandboxFault(spec: FaultSpec): Promise<FaultRule> {
  return faults.injectSandboxFault(currentProduct().sandboxUrl, spec);
}

export function clearSandboxFaults(): Promise<void> {
  return faults.clearSandboxFaults(currentProduct().sandboxUrl);
}
