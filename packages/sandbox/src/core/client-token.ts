/** The decoded client token (contracts section 1); the SDK hands its base64 JSON to the browser. */
export interface ClientToken {
  version: 2;
  environment: 'sandbox';
  authorizationFingerprint: string;
  configUrl: string;
  clientApiUrl: string;
  assetsUrl: string;
  merchantId: string;
}

export function clientApiUrl(origin: string, merchantId: string): string {
  return `${origin}/merchants/${merchantId}/client_api`;
}

export function buildClientToken(origin: string, merchantId: string, authorizationFingerprint: string): ClientToken {
  const apiUrl = clientApiUrl(origin, merchantId);
  return {
    version: 2,
    environment: 'sandbox',
    authorizationFingerprint,
    configUrl: `${apiUrl}/v1/configuration`,
    clientApiUrl: apiUrl,
    assetsUrl: origin,
    merchantId,
  };
}

export function encodeClientToken(token: ClientToken): string {
  return Buffer.from(JSON.stringify(token)).toString('base64');
}
