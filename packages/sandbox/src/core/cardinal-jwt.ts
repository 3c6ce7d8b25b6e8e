import { createHmac, randomUUID } from 'node:crypto';

// The provider's 3-D Secure 2 runs Cardinal Commerce's script (Songbird) in the browser to collect the device's data
// before the lookup; the provider's client configuration hands braintree-web what it needs for that, in a
// `threeDSecure` block (cardinalAuthenticationJWT, cardinalSongbirdUrl), and braintree-web's 3-D Secure 2 module
// refuses to start without the JWT (three-d-secure/index.js: THREEDS_NOT_ENABLED_FOR_V2). The provider signs it with
// its Cardinal credentials; the sandbox has none and Cardinal is not reached from here, so it signs a JWT of the same
// shape (Cardinal Cruise's: HS256; jti, iat, iss, OrgUnitId, exp) with a key each gateway makes when it starts, never
// written nor sent. Nothing checks it: Songbird would, and offline it does not load (braintree-web then looks up
// without Cardinal's fingerprint); the sandbox's own checkout client does not read the block.

/** Cardinal's staging Songbird, the script the provider's sandbox configuration names. */
export const CARDINAL_SONGBIRD_URL = 'https://songbirdstag.cardinalcommerce.com/edge/v1/songbird.js';

/** Cardinal takes no JWT older than two hours. */
const LIFETIME_S = 2 * 60 * 60;

const encode = (value: unknown): string => Buffer.from(JSON.stringify(value)).toString('base64url');

/** A fresh JWT per configuration, as Cardinal asks (a new jti each time), issued at the sandbox's time. */
export function cardinalAuthenticationJwt(key: Buffer, merchantId: string, now: Date): string {
  const iat = Math.floor(now.getTime() / 1000);
  const claims = { jti: randomUUID(), iat, exp: iat + LIFETIME_S, iss: 'kassa-sandbox', OrgUnitId: merchantId };
  const signed = `${encode({ alg: 'HS256', typ: 'JWT' })}.${encode(claims)}`;
  return `${signed}.${createHmac('sha256', key).update(signed).digest('base64url')}`;
}
