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

/**
 * `undefined`: the checkout's own sandbox client; `null`: the real provider's client is still loading. The real
 * provider's Apple Pay sheet names the shop (`displayName`) and Google Pay's is in the order's currency.
 */
export function useProviderFor(
  clientToken: string | undefined,
  wallets: { displayName: string; currencyCode: string },
): ProviderClient | undefined | null {
  const real = clientToken !== undefined && isProviderToken(clientToken);
  const { displayName, currencyCode } = wallets;
  const [provider, setProvider] = useState<{ token: string; client: ProviderClient } | null>(null);
  useEffect(() => {
    if (!real || clientToken === undefined) return;
    let current = true;
    void import('@kassa/checkout/braintree').then(({ createBraintreeProvider }) => {
      const client = createBraintreeProvider(clientToken, {
        applePay: { displayName },
        googlePay: { currencyCode },
      });
      if (current) setProvider({ token: clientToken, client });
    });
    return () => {
      current = false;
    };
  }, [real, clientToken, displayName, currencyCode]);
  if (!real) return undefined;
  return provider?.token === clientToken ? provider.client : null;
}
