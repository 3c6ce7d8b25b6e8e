// The provider client for Kassa's sandbox gateway: configuration over its client API, card fields from its origin.
import { createHostedFields } from '../fields/hosted-fields.ts';
import type { GatewayConfiguration, PaymentMethodResult } from '../machine/checkout.types.ts';
import { parseClientToken, type ClientToken } from './client-token.ts';
import { fetchFromGateway, GATEWAY_TIMEOUT_MS, NETWORK } from './gateway-failures.ts';
import { ProviderConfigurationError, ProviderError, type ProviderClient } from './provider.ts';
import { inTime } from '../runtime/in-time.ts';
import { isRecord } from './json.ts';
import type { GatewayFetch } from './sandbox-client-api.ts';

function strings(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A wallet's configuration block: present (an object) and not switched off. */
function isEnabled(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { enabled?: unknown }).enabled !== false;
}

/** Reads the configuration defensively: absent optional parts mean "not offered". */
export function parseConfiguration(body: unknown, token: ClientToken): GatewayConfiguration {
  if (typeof body !== 'object' || body === null)
    throw new ProviderConfigurationError('The gateway configuration is not an object.');
  const c = body as Record<string, unknown>;
  const cards = isRecord(c.creditCards) ? c.creditCards : {};
  return {
    // The token is what the server vouched for: frames and tokenization go where it says.
    clientApiUrl: token.clientApiUrl,
    assetsUrl: token.assetsUrl,
    challenges: strings(c.challenges),
    creditCards: { supportedCardTypes: strings(cards.supportedCardTypes) },
    threeDSecureEnabled: c.threeDSecureEnabled === true,
    paypalEnabled: c.paypalEnabled === true,
    applePayWeb: isEnabled(c.applePayWeb),
    androidPay: isEnabled(c.androidPay),
    payWithVenmo: isEnabled(c.payWithVenmo),
  };
}

/**
 * The client API's saved-methods list: tokenized cards and saved wallets (by their `type`, with the account's details)
 * plus `default` and `hasSubscription`; bad entries skipped.
 */
export async function parseSavedMethods(body: unknown): Promise<readonly PaymentMethodResult[]> {
  const list = isRecord(body) ? body.paymentMethods : undefined;
  // Read by a module loaded only when the list holds any: not in the card view's download, as only a customer's
  // checkout reads it (a guest's list is empty).
  if (!Array.isArray(list) || list.length === 0) return [];
  return (await inTime(import('./method-result.ts'))).savedMethods(list);
}

/** A flow whose module did not load: a failed outcome like any other (the flows themselves never reject). */
const notLoaded = (error: unknown): { readonly kind: 'failed'; readonly detail: string } => ({
  kind: 'failed',
  detail: String(error),
});

/** The sandbox's provider client for a client token (base64 JSON); throws a ProviderError for one it cannot read. */
export function createSandboxProvider(
  authorization: string,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  timeoutMs: number = GATEWAY_TIMEOUT_MS,
): ProviderClient {
  const token = parseClientToken(authorization);
  const gatewayFetch: GatewayFetch = (url, init, what) => fetchFromGateway(fetchImpl, url, init, what, timeoutMs);
  /** A client API call with the token's fingerprint in the query: the JSON body; a non-2xx answer throws its failure. */
  const call = async (address: string, what: string, init: RequestInit & { signal: AbortSignal }): Promise<unknown> => {
    const url = new URL(address);
    url.searchParams.set('authorizationFingerprint', token.authorizationFingerprint);
    const { response, body } = await gatewayFetch(
      url,
      { credentials: 'omit', headers: { Accept: 'application/json' }, ...init },
      what,
    );
    // What the error stands for is imported now (not in the card view's bundle); if it cannot be, the shop's own
    // origin is unreachable too: a network failure.
    if (!response.ok)
      throw await inTime(import('./http-failures.ts')).then(
        (failures) => failures.httpFailure(response, what),
        () => new ProviderError(NETWORK, `The gateway answered ${what} with HTTP ${response.status}.`),
      );
    return body;
  };
  const list = async (clientApiUrl: string, signal: AbortSignal) =>
    parseSavedMethods(await call(`${clientApiUrl}/v1/payment_methods`, 'the saved payment methods request', { signal }));
  /**
   * The saved methods asked for beside the configuration, at the client API the token names (the configuration keeps
   * that URL), rather than once it has answered: one round trip less before the first view (issue 10).
   */
  let listedEarly: Promise<readonly PaymentMethodResult[]> | null = null;
  return {
    async getConfiguration(signal) {
      listedEarly = list(token.clientApiUrl, signal);
      // Handled by the listPaymentMethods() call that takes it; a configuration that fails leaves it unread.
      listedEarly.catch(() => undefined);
      const body = await call(token.configUrl, 'the configuration request', { signal });
      if (body === undefined) throw new ProviderConfigurationError('The gateway configuration is not JSON.');
      return parseConfiguration(body, token);
    },
    // The frames' origin is the token's (as the configuration's assetsUrl is).
    mountsEarly: true,
    createHostedFields: (_config, options) => createHostedFields({ ...options, assetsUrl: token.assetsUrl }),
    // The frames' side reads the outcome (fields/submit.ts, on demand): the gateway's error answer, a card saved.
    tokenize: (fields, config, fieldNames, vault) =>
      fields.tokenize({
        authorizationFingerprint: token.authorizationFingerprint,
        clientApiUrl: config.clientApiUrl,
        fields: fieldNames,
        ...(vault ? { vault: true } : {}),
      }),
    listPaymentMethods(config, signal) {
      // The list asked for with the configuration, once (a list asked for again, after a deletion, is fetched afresh).
      const early = listedEarly;
      listedEarly = null;
      return early ?? list(config.clientApiUrl, signal);
    },
    async deletePaymentMethod(config, nonce) {
      const url = `${config.clientApiUrl}/v1/payment_methods/${encodeURIComponent(nonce)}`;
      await call(url, 'the delete request', { method: 'DELETE', signal: new AbortController().signal });
    },
    // No device data is a payment without it, never a failure.
    collectDeviceData: (config, signal) =>
      import('./sandbox-device-data.ts').then((flow) => flow.collectWithSandbox(config.assetsUrl, signal)).catch(() => null),
    // The sandbox's approval page stands in for every wallet's own window or sheet: any browser can show it.
    canPayWith: () => true,
    // The flows load on demand and never reject: only their import can fail (or stall: inTime, the parts' download limit,
    // as for every module of ours imported on demand), and that is a failed outcome too.
    approveWallet: (request) =>
      inTime(import('./sandbox-wallets.ts')).then((flow) => flow.approveWithSandbox(token, request, gatewayFetch), notLoaded),
    verifyThreeDSecure: (request) =>
      inTime(import('./sandbox-three-d-secure.ts')).then(
        (flow) => flow.verifyWithSandbox(token, request, gatewayFetch),
        notLoaded,
      ),
  };
}
