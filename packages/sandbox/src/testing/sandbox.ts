// Test support only: a running sandbox with the official SDK pointed at it. Not exported from src/index.ts; its name
// does not match the test include pattern (src/**/*.test.ts[x]).
import braintree from 'braintree';
import { startSandbox } from '../index.ts';
import type { Sandbox } from '../index.ts';

/** The client token fields the browser-side tests use. */
export interface ClientToken {
  authorizationFingerprint: string;
  configUrl: string;
  clientApiUrl: string;
}

export interface StartedSandbox {
  sandbox: Sandbox;
  gateway: braintree.BraintreeGateway;
  /** A guest client token, decoded. */
  token: ClientToken;
}

/** The official SDK configured for a sandbox. */
export function gatewayFor(sandbox: Sandbox): braintree.BraintreeGateway {
  const port = String(sandbox.port);
  return new braintree.BraintreeGateway({
    environment: new braintree.Environment(sandbox.host, port, `http://${sandbox.host}`, false, sandbox.host, port),
    merchantId: sandbox.merchantId,
    publicKey: sandbox.publicKey,
    privateKey: sandbox.privateKey,
  });
}

export function decodeClientToken(clientToken: string): ClientToken {
  return JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as ClientToken;
}

/** Starts a sandbox and generates a guest client token through the SDK; the caller closes `sandbox`. */
export async function startSandboxWithClient(): Promise<StartedSandbox> {
  const sandbox = await startSandbox();
  try {
    const gateway = gatewayFor(sandbox);
    const token = decodeClientToken((await gateway.clientToken.generate({})).clientToken);
    return { sandbox, gateway, token };
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}
