// What an HTTP error from the gateway stands for (401, 403, 429 with its Retry-After, 5xx), told apart as
// gateway-failures.ts tells the others. Imported on demand, when the gateway answers one: the card view's first paint
// needs none of it (issue 10).
import { ProviderError } from './provider.ts';

/** A 429 without a readable Retry-After: wait this long. */
const DEFAULT_RETRY_AFTER_MS = 5_000;
/** Never make the shopper wait longer than this for an automatic retry, whatever the gateway says. */
const MAX_RETRY_AFTER_MS = 60_000;

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
