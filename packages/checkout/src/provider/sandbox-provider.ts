// The provider client for Kassa's sandbox gateway: configuration over its client API, card fields from its origin.
import { createHostedFields } from '../fields/hosted-fields.ts';
import type { GatewayConfiguration } from '../machine/checkout.types.ts';
import type { ClientToken } from './client-token.ts';
import { ProviderError, type ProviderClient } from './provider.ts';

const NETWORK = { code: 'network', messageKey: 'error.network', retriable: true } as const;
const REJECTED = { code: 'authorization_rejected', messageKey: 'error.authorizationRejected', retriable: false } as const;
const BAD_CONFIG = { code: 'configuration_failed', messageKey: 'error.network', retriable: true } as const;

function strings(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** Reads the configuration defensively: absent optional parts mean "not offered". */
export function parseConfiguration(body: unknown, token: ClientToken): GatewayConfiguration {
  if (typeof body !== 'object' || body === null) throw new ProviderError(BAD_CONFIG, 'The gateway configuration is not an object.');
  const c = body as Record<string, unknown>;
  const cards = typeof c.creditCards === 'object' && c.creditCards !== null ? (c.creditCards as Record<string, unknown>) : {};
  return {
    environment: typeof c.environment === 'string' ? c.environment : token.environment,
    merchantId: typeof c.merchantId === 'string' ? c.merchantId : token.merchantId,
    // The token is what the server vouched for: frames and tokenization go where it says.
    clientApiUrl: token.clientApiUrl,
    assetsUrl: token.assetsUrl,
    challenges: strings(c.challenges),
    creditCards: { supportedCardTypes: strings(cards.supportedCardTypes) },
    threeDSecureEnabled: c.threeDSecureEnabled === true,
  };
}

export function createSandboxProvider(token: ClientToken, fetchImpl: typeof fetch = fetch): ProviderClient {
  return {
    async getConfiguration(signal) {
      const url = new URL(token.configUrl);
      url.searchParams.set('authorizationFingerprint', token.authorizationFingerprint);
      let response: Response;
      try {
        response = await fetchImpl(url, { signal, credentials: 'omit', headers: { Accept: 'application/json' } });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ProviderError(NETWORK, 'The gateway configuration could not be fetched.');
      }
      if (response.status === 401 || response.status === 403) {
        throw new ProviderError(REJECTED, `The gateway refused the client token (HTTP ${response.status}).`);
      }
      if (!response.ok) throw new ProviderError(NETWORK, `The gateway answered HTTP ${response.status}.`);
      let body: unknown;
      try {
        body = await response.json();
      } catch {
        throw new ProviderError(BAD_CONFIG, 'The gateway configuration is not JSON.');
      }
      return parseConfiguration(body, token);
    },
    createHostedFields(config, options) {
      return createHostedFields({ ...options, assetsUrl: config.assetsUrl });
    },
    tokenize(fields, config, fieldNames) {
      return fields.tokenize({
        authorizationFingerprint: token.authorizationFingerprint,
        clientApiUrl: config.clientApiUrl,
        fields: fieldNames,
      });
    },
  };
}
