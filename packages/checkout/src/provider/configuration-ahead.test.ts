import { describe, expect, it } from 'vitest';
import { askConfigurationAhead, providerAsked } from './configuration-ahead.ts';
import { createSandboxProvider } from './sandbox-provider.ts';

// The sandbox's own provider client, its gateway answering here; e2e/tests/warm-frame.spec.ts checks the request's
// moment on the shop's cart's way in a real checkout.

/** A client token of the sandbox's form, for merchant `merchant`. */
const tokenFor = (merchant: string) =>
  btoa(
    JSON.stringify({
      version: 2,
      environment: 'sandbox',
      authorizationFingerprint: 'fp.signed',
      configUrl: `http://127.0.0.1:8090/merchants/${merchant}/client_api/v1/configuration`,
      clientApiUrl: `http://127.0.0.1:8090/merchants/${merchant}/client_api`,
      assetsUrl: 'http://127.0.0.1:8090',
      merchantId: merchant,
    }),
  );

/** A sandbox provider over a gateway that answers every call, and the configuration requests it was sent. */
function countingGateway() {
  const configurations: string[] = [];
  const fetchImpl: typeof fetch = async (input) => {
    const url = new URL(String(input));
    if (url.pathname.endsWith('/configuration')) configurations.push(url.pathname);
    return new Response(JSON.stringify({ challenges: ['cvv'], paymentMethods: [] }), { status: 200 });
  };
  return { create: (token: string) => createSandboxProvider(token, fetchImpl), configurations };
}

describe('the configuration asked for ahead', () => {
  it("is asked for at once, taken by the provider's first getConfiguration, and asked afresh by a retry", async () => {
    const gateway = countingGateway();
    const token = tokenFor('m1');
    askConfigurationAhead(token, gateway.create);
    expect(gateway.configurations).toHaveLength(1);
    // Asked again for the same token (the page loaded again): nothing more.
    askConfigurationAhead(token, gateway.create);
    const provider = providerAsked(token);
    expect(provider?.mountsEarly).toBe(true);
    const signal = new AbortController().signal;
    await expect(provider?.getConfiguration(signal)).resolves.toMatchObject({ challenges: ['cvv'] });
    expect(gateway.configurations).toHaveLength(1);
    await provider?.getConfiguration(signal);
    expect(gateway.configurations).toHaveLength(2);
  });

  it('gives no provider for another token, nor for one the sandbox client cannot read', () => {
    const gateway = countingGateway();
    askConfigurationAhead(tokenFor('m2'), gateway.create);
    expect(providerAsked(tokenFor('m3'))).toBeUndefined();
    askConfigurationAhead('%%%', gateway.create);
    expect(providerAsked('%%%')).toBeUndefined();
    expect(gateway.configurations).toEqual(['/merchants/m2/client_api/v1/configuration']);
  });
});
