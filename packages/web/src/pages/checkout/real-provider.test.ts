import { describe, expect, it } from 'vitest';
import { isProviderToken } from './real-provider.ts';

const token = (configUrl: string) => btoa(JSON.stringify({ version: 2, authorizationFingerprint: 'fp', configUrl }));

describe('the provider client the shop checkout uses', () => {
  it("is the real provider's for a token configured on the provider's domains, the sandbox's otherwise", () => {
    expect(isProviderToken(token('https://api.sandbox.braintreegateway.com/merchants/m1/client_api/v1/configuration'))).toBe(
      true,
    );
    expect(isProviderToken(token('https://api.braintreegateway.com/merchants/m1/client_api/v1/configuration'))).toBe(true);
    expect(isProviderToken(token('http://127.0.0.1:8090/merchants/m1/client_api/v1/configuration'))).toBe(false);
    // A look-alike host is not the provider's.
    expect(isProviderToken(token('https://braintreegateway.com.example/merchants/m1/client_api/v1/configuration'))).toBe(false);
    expect(isProviderToken('not base64 json')).toBe(false);
  });
});
