// Decoding the client token (contracts section 1): base64 of a JSON object the server got from the gateway.
import { ProviderError } from './provider.ts';

/** What the checkout reads of the token (its version, environment and merchant id are the gateway's, unread here). */
export interface ClientToken {
  readonly authorizationFingerprint: string;
  readonly configUrl: string;
  readonly clientApiUrl: string;
  readonly assetsUrl: string;
}

const INVALID = { code: 'invalid_authorization', messageKey: 'error.invalidAuthorization', retriable: false } as const;

function fail(detail: string): never {
  throw new ProviderError(INVALID, `Invalid authorization: ${detail}. Pass the client token your server generated.`);
}

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Throws a ProviderError naming what is wrong, so an integrator can fix the call site. */
export function parseClientToken(authorization: unknown): ClientToken {
  if (typeof authorization !== 'string' || authorization.trim() === '') fail('the authorization is missing');
  let decoded: unknown;
  try {
    decoded = JSON.parse(atob(authorization.trim()));
  } catch {
    fail('it is not base64-encoded JSON (tokenization keys are not supported yet)');
  }
  if (typeof decoded !== 'object' || decoded === null) fail('it does not decode to an object');
  const token = decoded as Record<string, unknown>;
  if (typeof token.authorizationFingerprint !== 'string' || token.authorizationFingerprint === '') {
    fail('authorizationFingerprint is missing');
  }
  for (const key of ['configUrl', 'clientApiUrl', 'assetsUrl'] as const) {
    if (!isHttpUrl(token[key])) fail(`${key} is not an http(s) URL`);
  }
  // Itself, checked: what else the gateway put in it is carried along unread (issue 10: no copy in the card view).
  return token as unknown as ClientToken;
}
