// What an HTTP error from the gateway stands for (401, 403, 429 with its Retry-After, 5xx; a tokenization's 422), told
// apart as gateway-failures.ts tells the others. Imported on demand, when the gateway answers one: the card view's
// first paint needs none of it (issue 10). The number frame passes its tokenization's error answers on to be read
// here, so the frame's script carries none of this either.
import { isFieldName, type FieldName, type GatewayAnswer, type TokenizeFailure } from '../machine/checkout.types.ts';
import { isRecord } from './json.ts';
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

/** The provider's nested 422 `fieldErrors` -> its error codes and our field names (expirationMonth/Year: the expiry). */
function rejectedFields(entries: unknown): { codes: string[]; fields: FieldName[] } {
  const codes: string[] = [];
  const fields = new Set<FieldName>();
  const walk = (level: unknown): void => {
    if (!Array.isArray(level)) return;
    for (const entry of level) {
      if (!isRecord(entry)) continue;
      walk(entry.fieldErrors);
      if (typeof entry.code === 'string') codes.push(entry.code);
      const name = String(entry.field).replace(/^expiration(Month|Year)$/, 'expirationDate');
      if (entry.fieldErrors === undefined && isFieldName(name)) fields.add(name);
    }
  };
  walk(entries);
  return { codes, fields: [...fields] };
}

/** The failure a tokenization's error answer stands for (the sandbox's client API, passed on by the number frame). */
export function tokenizeFailure({ status, retryAfter, body }: GatewayAnswer): TokenizeFailure {
  const failure = (code: string, message: string, fields?: FieldName[]): TokenizeFailure => ({
    code,
    message,
    ...(fields ? { fields } : {}),
  });
  switch (status) {
    case 401:
      return failure('authorization', 'The authorization is invalid or expired.');
    case 403:
      return failure('forbidden', 'The authorization may not tokenize cards.');
    case 429:
      return { ...failure('rate_limited', 'The gateway is rate limiting.'), retryAfterMs: retryAfterMs(retryAfter) };
    case 422: {
      const rejected = isRecord(body) ? body : {};
      const { codes, fields } = rejectedFields(rejected.fieldErrors);
      if (rejected.verification !== undefined) return failure('verification_failed', 'The card failed verification.');
      if (codes.includes('81724') || codes.includes('81763')) {
        return failure('duplicate_payment_method', 'The card is already saved.', ['number']);
      }
      if (codes.includes('81703')) return failure('unsupported_card_type', 'This card type is not supported.', ['number']);
      return failure('invalid_fields', 'The gateway refused some card fields.', fields);
    }
    default:
      return failure('gateway', `The gateway answered ${status}.`);
  }
}
