// The provider failures a browser can meet when it calls the gateway, told apart (spec section 8): each has a stable
// code, a message a shopper understands and whether trying again can help. A gateway that did not answer is told here;
// one that answered an HTTP error in http-failures.ts, imported when one comes (the card view's first paint needs none).
import type { CheckoutErrorInfo } from '../machine/checkout.types.ts';
import { ProviderError } from './provider.ts';

/** Every request to the gateway gives up after this long (a hung gateway must not leave the form loading forever). */
export const GATEWAY_TIMEOUT_MS = 15_000;

export const NETWORK: CheckoutErrorInfo = { code: 'network', messageKey: 'error.network', retriable: true };
export const TIMEOUT: CheckoutErrorInfo = { code: 'timeout', messageKey: 'error.timeout', retriable: true };

/**
 * fetch() with the gateway time-out: rejects with a ProviderError (timeout or network) when no answer comes, and
 * with the caller's abort reason when the caller gave up.
 */
export async function fetchFromGateway(
  fetchImpl: typeof fetch,
  url: URL,
  init: RequestInit & { signal: AbortSignal },
  what: string,
  timeoutMs: number = GATEWAY_TIMEOUT_MS,
): Promise<{ response: Response; body: unknown }> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([init.signal, timeout]);
  try {
    const response = await fetchImpl(url, { ...init, signal });
    // The body counts against the time-out too: a gateway may send headers and then hang.
    const body: unknown = await response.json().catch((error: unknown) => {
      if (signal.aborted) throw error;
      return undefined;
    });
    return { response, body };
  } catch (error) {
    if (init.signal.aborted) throw error;
    if (timeout.aborted) throw new ProviderError(TIMEOUT, `The gateway did not answer ${what} within ${timeoutMs} ms.`);
    throw new ProviderError(NETWORK, `The gateway could not be reached for ${what}.`);
  }
}
