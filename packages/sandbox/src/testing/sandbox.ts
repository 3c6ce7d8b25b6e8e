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

/** A card expiring in December two years from now: valid whatever the date the tests run. */
export function futureExpiry(): string {
  return `12/${new Date().getUTCFullYear() + 2}`;
}

/** Tokenizes a card through the client API as the hosted field frames do; throws unless it answers 201. */
export async function tokenizeCard(token: ClientToken, creditCard: Record<string, unknown>): Promise<string> {
  const response = await fetch(`${token.clientApiUrl}/v1/payment_methods/credit_cards`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      authorizationFingerprint: token.authorizationFingerprint,
      creditCard: { expirationDate: futureExpiry(), ...creditCard },
    }),
  });
  const body = (await response.json()) as { creditCards?: Array<{ nonce: string }> };
  const nonce = body.creditCards?.[0]?.nonce;
  if (response.status !== 201 || nonce === undefined)
    throw new Error(`tokenization answered ${response.status}: ${JSON.stringify(body)}`);
  return nonce;
}

/** SDK calls whose options @types/braintree does not declare (the SDK itself accepts and sends them). */
export interface UntypedTransactionCalls {
  refund(
    id: string,
    options: { amount?: string; orderId?: string; apiRequestKey?: string },
  ): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
  submitForSettlement(
    id: string,
    amount: string | undefined,
    options: { apiRequestKey: string },
  ): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
  void(id: string, options: { apiRequestKey: string }): Promise<braintree.ValidatedResponse<braintree.Transaction>>;
}

export function untypedTransactions(gateway: braintree.BraintreeGateway): UntypedTransactionCalls {
  return gateway.transaction as unknown as UntypedTransactionCalls;
}

/** Every error code of a result (the provider nests them by path). */
export function errorCodes(result: braintree.ValidatedResponse<unknown>): string[] {
  return result.errors?.deepErrors().map((error) => error.code) ?? [];
}
