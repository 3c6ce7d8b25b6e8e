import type { FaultRule, FaultSpec } from '../core/faults.ts';

// The TEST-ONLY fault controls (README, "Fault injection") of a sandbox in another process, over HTTP: for a sandbox
// started with `testControls` (`SANDBOX_TEST_CONTROLS=1`), as e2e's Kassas and the server's sandbox processes are.

/** Makes the next matching requests of the sandbox at `origin` fail as `spec` says. */
export async function injectSandboxFault(origin: string, spec: FaultSpec): Promise<FaultRule> {
  const response = await fetch(`${origin}/__sandbox/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(spec),
  });
  if (response.status !== 201) throw new Error(`the sandbox refused the fault: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { fault: FaultRule }).fault;
}

/** Removes every fault rule of the sandbox at `origin` still waiting for a request. */
export async function clearSandboxFaults(origin: string): Promise<void> {
  const response = await fetch(`${origin}/__sandbox/faults`, { method: 'DELETE' });
  if (response.status !== 204) throw new Error(`the sandbox did not clear its faults: ${response.status}`);
}
