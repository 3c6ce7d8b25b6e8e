// The provider failures a browser can meet when it calls the gateway, told apart (spec section 8): each has a stable
// code, a message a shopper understands and whether trying again can help.
import type { CheckoutErrorInfo } from '../machine/checkout.types.ts';
import { ProviderError } from './provider.ts';

/** Every request to the gateway gives up after this long (a hung gateway must not leave the form loading forever). */
export const GATEWAY_TIMEOUT_MS = 15_000;
/** A 429 without a readable Retry-After: wait this long. */
const DEFAULT_RETRY_AFTER_MS = 5_000;
/** Never make the shopper wait longer than this for an automatic retry, whatever the gateway says. */
const MAX_RETRY_AFTER_MS = 60_000;

export const NETWORK: CheckoutErrorInfo = { code: 'network', messageKey: 'error.network', retriable: true };
export const TIMEOUT: CheckoutErrorInfo = { code: 'timeout', messageKey: 'error.timeout', retriable: true };

/** Retry-After (RFC 9110: seconds or an HTTP date) in milliseconds, bounded; the default when unreadable. */
export function retryAfterMs(header: string | null, now: number = Date.now()): number {
  const text = header?.trim() ?? '';
  let ms = DEFAULT_RETRY_AFTER_MS;
  if (/^\d+$/.test(text)) ms = Number(text) * 1000;
  else if (text !== '' && !Number.isNaN(Date.parse(text))) ms = Math.max(0, Date.parse(text) - now);
  return Math.min(ms, MAX_RETRY_AFTER_MS);
}

/** The failure an HTTP answer other than 2xx stands for. */
export function httpFailure(response: Pick<Response, 'status' | 'headers'>, what: string): ProviderError {
  const { status } = response;
  switch (status) {
    case 401:
      return new ProviderError(
        { code: 'authorization_rejected', messageKey: 'error.authorizationRejected', retriable: false },
        `The gateway refused the client token for ${what} (HTTP 401): generate a new one on your server.`,
      );
    case 403:
      return new ProviderError(
        { code: 'insufficient_privileges', messageKey: 'error.insufficientPrivileges', retriable: false },
        `The gateway refused ${what} (HTTP 403): the merchant account may not do this.`,
      );
    case 429:
      return new ProviderError(
        {
          code: 'rate_limited',
          messageKey: 'error.rateLimited',
          retriable: true,
          retryAfterMs: retryAfterMs(response.headers.get('Retry-After')),
        },
        `The gateway is rate limiting ${what} (HTTP 429).`,
      );
    default:
      return new ProviderError(
        { code: 'gateway', messageKey: 'error.gatewayUnavailable', retriable: true },
        `The gateway answered ${what} with HTTP ${status}.`,
      );
  }
}

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
