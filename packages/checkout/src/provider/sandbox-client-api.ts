// The sandbox client API's JSON calls made by the flows imported on demand (3-D Secure, wallets): a POST with the
// token's fingerprint, answered as JSON. Kept apart so each flow's chunk shares it instead of repeating it.
import type { ClientToken } from './client-token.ts';
import { isRecord, type Json } from './json.ts';

/** fetchFromGateway with the provider's fetch and time-out (passed in: the flows import nothing at run time). */
export type GatewayFetch = (
  url: URL,
  init: RequestInit & { signal: AbortSignal },
  what: string,
) => Promise<{ response: Response; body: unknown }>;

/** A non-2xx answer, with its body: a caller that expects some refusals (a wallet still pending) reads its code. */
export class ClientApiRefusal extends Error {
  readonly status: number;
  readonly body: unknown;
  constructor(what: string, status: number, body: unknown) {
    super(`The gateway answered ${what} with HTTP ${status}.`);
    this.name = 'ClientApiRefusal';
    this.status = status;
    this.body = body;
  }
}

export type ClientApiPost = (path: string, body: Json, what: string) => Promise<Json>;

/** POSTs `body` plus the fingerprint to `${clientApiUrl}${path}`; a non-2xx or non-object answer rejects. */
export function clientApiPost(
  token: ClientToken,
  clientApiUrl: string,
  signal: AbortSignal,
  fetchFromGateway: GatewayFetch,
): ClientApiPost {
  return async (path, body, what) => {
    const init = {
      method: 'POST',
      signal,
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ authorizationFingerprint: token.authorizationFingerprint, ...body }),
    } as const;
    const { response, body: answer } = await fetchFromGateway(new URL(`${clientApiUrl}${path}`), init, what);
    if (!response.ok || !isRecord(answer)) throw new ClientApiRefusal(what, response.status, answer);
    return answer;
  };
}
