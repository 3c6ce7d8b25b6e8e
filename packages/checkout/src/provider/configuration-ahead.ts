// The sandbox gateway's configuration asked for as soon as a page has the client token, before it renders the checkout,
// rather than as the checkout mounts after that render (issue 10: on Kassa's cart's way it answered about when the
// number's frame was ready, sometimes after, and the number waited for it). The checkout is given the provider that
// asked, which takes that request as its first configuration: one request, no second. In @kassa/checkout/sandbox only,
// not in the card view's chunk.
import type { ProviderClient } from './provider.ts';
import { createSandboxProvider } from './sandbox-provider.ts';

/** The provider that asked ahead, for the last token it was asked for. */
let ahead: { readonly token: string; readonly provider: ProviderClient } | null = null;

/**
 * A sandbox provider for `clientToken` whose configuration (and with it the saved methods, which the sandbox provider
 * asks for beside it) is asked for now; its first getConfiguration() takes that request, a later one (a retry) asks
 * afresh. A token the sandbox client cannot read is left to the checkout to report.
 */
export function askConfigurationAhead(clientToken: string, create = createSandboxProvider): void {
  if (ahead?.token === clientToken) return;
  let provider: ProviderClient;
  try {
    provider = create(clientToken);
  } catch {
    return;
  }
  let asked: ReturnType<ProviderClient['getConfiguration']> | null = provider.getConfiguration(new AbortController().signal);
  // Handled by the checkout that takes it; one never taken (the shopper went elsewhere) is left unread.
  asked.catch(() => undefined);
  ahead = {
    token: clientToken,
    provider: {
      ...provider,
      getConfiguration(signal) {
        const taken = asked;
        asked = null;
        return taken ?? provider.getConfiguration(signal);
      },
    },
  };
}

/** The provider that asked ahead for this token, if one did. */
export function providerAsked(clientToken: string): ProviderClient | undefined {
  return ahead?.token === clientToken ? ahead.provider : undefined;
}
