import { useEffect, useState } from 'react';
import type { ProviderClient } from '@kassa/checkout';

// Which provider client the checkout talks to: the server hands the shop a client token from whichever gateway it is
// configured for. A token from the real provider (its configuration on the provider's own domains) needs the
// braintree-web client, imported only then; Kassa's sandbox token needs nothing (the checkout's default).

const PROVIDER_HOSTS = /(^|\.)(braintreegateway|braintree-api)\.com$/;

/** Whether a client token is the real provider's: its configUrl is on the provider's domains. */
export function isProviderToken(clientToken: string): boolean {
  try {
    const { configUrl } = JSON.parse(atob(clientToken)) as { configUrl?: unknown };
    return typeof configUrl === 'string' && PROVIDER_HOSTS.test(new URL(configUrl).hostname);
  } catch {
    return false;
  }
}

/** `undefined`: the checkout's own sandbox client; `null`: the real provider's client is still loading. */
export function useProviderFor(clientToken: string | undefined): ProviderClient | undefined | null {
  const real = clientToken !== undefined && isProviderToken(clientToken);
  const [provider, setProvider] = useState<{ token: string; client: ProviderClient } | null>(null);
  useEffect(() => {
    if (!real || clientToken === undefined) return;
    let current = true;
    void import('@kassa/checkout/braintree').then(({ createBraintreeProvider }) => {
      if (current) setProvider({ token: clientToken, client: createBraintreeProvider(clientToken) });
    });
    return () => {
      current = false;
    };
  }, [real, clientToken]);
  if (!real) return undefined;
  return provider?.token === clientToken ? provider.client : null;
}
