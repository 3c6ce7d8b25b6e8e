// The provider client for Kassa's sandbox gateway: configuration over its client API, card fields from its origin.
import { createHostedFields } from '../fields/hosted-fields.ts';
import { parseTokenizeResult } from '../fields/protocol.ts';
import type { GatewayConfiguration, PaymentMethodResult } from '../machine/checkout.types.ts';
import type { ClientToken } from './client-token.ts';
import { fetchFromGateway, GATEWAY_TIMEOUT_MS, httpFailure } from './gateway-failures.ts';
import { ProviderError, type ProviderClient } from './provider.ts';

const BAD_CONFIG = { code: 'configuration_failed', messageKey: 'error.gatewayUnavailable', retriable: true } as const;

function strings(value: unknown): readonly string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

/** A wallet's configuration block: present (an object) and not switched off. */
function isEnabled(value: unknown): boolean {
  return typeof value === 'object' && value !== null && (value as { enabled?: unknown }).enabled !== false;
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
    paypalEnabled: c.paypalEnabled === true,
    applePayWeb: isEnabled(c.applePayWeb),
    androidPay: isEnabled(c.androidPay),
    payWithVenmo: isEnabled(c.payWithVenmo),
  };
}

/** The client API's saved-methods list: tokenized cards plus `default` and `hasSubscription`; bad entries skipped. */
export function parseSavedMethods(body: unknown): readonly PaymentMethodResult[] {
  const list = typeof body === 'object' && body !== null ? (body as { paymentMethods?: unknown }).paymentMethods : undefined;
  if (!Array.isArray(list)) return [];
  return list.flatMap((entry: unknown) => {
    const card = parseTokenizeResult(entry);
    if (card === null) return [];
    const flags = entry as { default?: unknown; hasSubscription?: unknown };
    return [{ ...card, vaulted: true, default: flags.default === true, hasSubscription: flags.hasSubscription === true }];
  });
}

export function createSandboxProvider(
  token: ClientToken,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
  timeoutMs: number = GATEWAY_TIMEOUT_MS,
): ProviderClient {
  return {
    async getConfiguration(signal) {
      const url = new URL(token.configUrl);
      url.searchParams.set('authorizationFingerprint', token.authorizationFingerprint);
      const what = 'the configuration request';
      const init = { signal, credentials: 'omit', headers: { Accept: 'application/json' } } as const;
      const { response, body } = await fetchFromGateway(fetchImpl, url, init, what, timeoutMs);
      if (!response.ok) throw httpFailure(response, what);
      if (body === undefined) throw new ProviderError(BAD_CONFIG, 'The gateway configuration is not JSON.');
      return parseConfiguration(body, token);
    },
    createHostedFields(config, options) {
      return createHostedFields({ ...options, assetsUrl: config.assetsUrl });
    },
    async tokenize(fields, config, fieldNames, vault) {
      const outcome = await fields.tokenize({
        authorizationFingerprint: token.authorizationFingerprint,
        clientApiUrl: config.clientApiUrl,
        fields: fieldNames,
        ...(vault ? { vault: true } : {}),
      });
      // A card saved on the way is a saved method from now on (the gateway's answer does not say so itself).
      return outcome.ok && vault ? { ok: true, result: { ...outcome.result, vaulted: true, hasSubscription: false } } : outcome;
    },
    async listPaymentMethods(config, signal) {
      const url = new URL(`${config.clientApiUrl}/v1/payment_methods`);
      url.searchParams.set('authorizationFingerprint', token.authorizationFingerprint);
      const what = 'the saved payment methods request';
      const init = { signal, credentials: 'omit', headers: { Accept: 'application/json' } } as const;
      const { response, body } = await fetchFromGateway(fetchImpl, url, init, what, timeoutMs);
      if (!response.ok) throw httpFailure(response, what);
      return parseSavedMethods(body);
    },
    async deletePaymentMethod(config, nonce) {
      const url = new URL(`${config.clientApiUrl}/v1/payment_methods/${encodeURIComponent(nonce)}`);
      url.searchParams.set('authorizationFingerprint', token.authorizationFingerprint);
      const what = 'the delete request';
      const init = { method: 'DELETE', signal: new AbortController().signal, credentials: 'omit' } as const;
      const { response } = await fetchFromGateway(fetchImpl, url, init, what, timeoutMs);
      if (!response.ok) throw httpFailure(response, what);
    },
    async collectDeviceData(config, signal) {
      try {
        const { collectWithSandbox } = await import('./sandbox-device-data.ts');
        return await collectWithSandbox(config.assetsUrl, signal);
      } catch {
        return null;
      }
    },
    async verifyThreeDSecure(request) {
      try {
        const { verifyWithSandbox } = await import('./sandbox-three-d-secure.ts');
        return await verifyWithSandbox(token, request, (url, init, what) => fetchFromGateway(fetchImpl, url, init, what, timeoutMs));
      } catch (error) {
        return { kind: 'failed', detail: `3-D Secure could not load: ${String(error)}` };
      }
    },
  };
}
