// The provider client for the real provider, over braintree-web (gateway.md: braintree-web only talks to the
// provider's own https origins, so the sandbox has its own client). Same interface as the sandbox's: the checkout's
// machine, views and events do not know which one runs. Each braintree-web module is imported when first used.
// Not built here: Apple Pay and Google Pay (canPayWith says no, so they are not offered with this provider).
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../../fields/hosted-fields.ts';
import type { FieldName, PaymentMethodResult, PaymentMethodType } from '../../machine/checkout.types.ts';
import type { WalletOptionId } from '../../machine/payment-options.ts';
import { NETWORK, TIMEOUT } from '../gateway-failures.ts';
import { ProviderConfigurationError, ProviderError, type ProviderClient, type WalletOutcome } from '../provider.ts';
import { parseConfiguration } from '../sandbox-provider.ts';
import {
  braintreeWeb,
  type BraintreeError,
  type BraintreeWeb,
  type HostedFieldsInstance,
  type TokenizePayload,
} from './modules.ts';

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const record = (value: unknown): Readonly<Record<string, unknown>> =>
  typeof value === 'object' && value !== null ? (value as Readonly<Record<string, unknown>>) : {};

/** A braintree-web payload in the result shape (cards, wallets and saved methods alike). */
export function resultOf(
  payload: TokenizePayload & { readonly threeDSecureInfo?: unknown },
  type: PaymentMethodType = 'CreditCard',
): PaymentMethodResult {
  const d = payload.details;
  const lastFour = str(d.lastFour);
  return {
    nonce: payload.nonce,
    type: (payload.type as PaymentMethodType | undefined) ?? type,
    details: {
      bin: str(d.bin),
      cardType: str(d.cardType),
      lastFour,
      lastTwo: str(d.lastTwo) || lastFour.slice(-2),
      expirationMonth: str(d.expirationMonth),
      expirationYear: str(d.expirationYear),
      cardholderName: typeof d.cardholderName === 'string' ? d.cardholderName : null,
      ...(typeof d.email === 'string' ? { email: d.email } : {}),
      ...(typeof d.username === 'string' ? { username: d.username } : {}),
    },
    description: str(payload.description),
    binData: payload.binData === undefined ? undefined : (payload.binData as unknown as PaymentMethodResult['binData']),
    vaulted: false,
    hasSubscription: false,
    liabilityShifted: undefined,
    liabilityShiftPossible: undefined,
    threeDSecureInfo: undefined,
    deviceData: undefined,
  };
}

/** braintree-web's error codes, as the checkout tells them apart (the rest is a gateway failure). */
function tokenizeFailure(error: unknown): TokenizeOutcome {
  const { code = '', message = 'braintree-web refused the card.' } = record(error) as BraintreeError;
  if (code === 'HOSTED_FIELDS_FIELDS_EMPTY' || code === 'HOSTED_FIELDS_FIELDS_INVALID')
    return { ok: false, error: { code: 'invalid_fields', message } };
  if (code === 'HOSTED_FIELDS_TOKENIZATION_FAIL_ON_DUPLICATE') return { ok: false, error: { code: 'duplicate_card', message } };
  if (code === 'HOSTED_FIELDS_TOKENIZATION_CVV_VERIFICATION_FAILED')
    return { ok: false, error: { code: 'verification_failed', message } };
  if (code === 'HOSTED_FIELDS_TOKENIZATION_NETWORK_ERROR') return { ok: false, error: { code: 'network', message } };
  return { ok: false, error: { code: 'gateway', message } };
}

/**
 * What braintree-web's client could not do, as the checkout tells failures apart: its network, time-out and
 * rate-limit codes are those failures; anything else (the module did not load, it refused the authorization or the
 * configuration) is a configuration failure, with braintree-web's code and message for the developer.
 */
function clientFailure(error: unknown): ProviderError {
  const { code = '', message = String(error) } = record(error) as BraintreeError;
  const detail = `braintree-web could not load the configuration: ${`${code} ${message}`.trim()}`;
  if (code === 'CLIENT_GATEWAY_NETWORK') return new ProviderError(NETWORK, detail);
  if (code === 'CLIENT_REQUEST_TIMEOUT') return new ProviderError(TIMEOUT, detail);
  if (code === 'CLIENT_RATE_LIMITED')
    return new ProviderError({ code: 'rate_limited', messageKey: 'error.rateLimited', retriable: true }, detail);
  return new ProviderConfigurationError(detail);
}

/** Our hosted-fields interface over braintree-web's: its frames, events and tokenization. */
function hostedFieldsOver(created: Promise<HostedFieldsInstance>, options: Omit<HostedFieldsOptions, 'assetsUrl'>): HostedFields {
  let instance: HostedFieldsInstance | null = null;
  let tornDown = false;
  const mounted = options.mounts.map((mount) => mount.field);
  const isOurs = (field: string): field is FieldName => (mounted as readonly string[]).includes(field);
  void created.then((fields) => {
    if (tornDown) return void fields.teardown();
    instance = fields;
    for (const field of mounted) options.onMessage(field, { type: 'ready', field });
    const relay = (name: string, event: 'focus' | 'blur' | 'input') =>
      fields.on(name, (state) => {
        const field = state.emittedBy;
        const data = state.fields[field];
        if (isOurs(field) && data !== undefined) options.onMessage(field, { type: 'state', field, event, state: { ...data } });
      });
    relay('focus', 'focus');
    relay('blur', 'blur');
    relay('validityChange', 'input');
    relay('empty', 'input');
    relay('notEmpty', 'input');
    fields.on('cardTypeChange', (state) => options.onMessage('number', { type: 'cardTypeChange', cards: state.cards }));
    fields.on('binAvailable', (state) => options.onMessage('number', { type: 'binAvailable', bin: str(state.bin) }));
    fields.on('inputSubmitRequest', (state) => {
      if (isOurs(state.emittedBy)) options.onMessage(state.emittedBy, { type: 'inputSubmitRequest', field: state.emittedBy });
    });
  });
  return {
    channel: 'braintree-web',
    configure(field, payload) {
      // braintree-web sets its own label; the message is read with the field.
      if (payload.errorMessage !== undefined) instance?.setMessage({ field, message: payload.errorMessage });
      void instance?.setAttribute({ field, attribute: 'aria-invalid', value: payload.invalid });
      void instance?.setAttribute({ field, attribute: 'aria-required', value: payload.required });
    },
    setCvvSize() {
      // braintree-web sizes the CVV itself from the card type.
    },
    focus: (field) => instance?.focus(field),
    clear: () => {
      for (const field of mounted) instance?.clear(field);
    },
    async tokenize(request) {
      const fields = await created;
      return fields
        .tokenize(request.vault === true ? { vault: true } : {})
        .then((payload) => ({ ok: true, result: resultOf(payload) }), tokenizeFailure);
    },
    teardown() {
      tornDown = true;
      void instance?.teardown();
    },
  };
}

export function createBraintreeProvider(authorization: string, modules: BraintreeWeb = braintreeWeb): ProviderClient {
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let loaded: Promise<T> | null = null;
    return () => (loaded ??= load());
  };
  const client = once(async () => (await modules.client()).create({ authorization }));
  const vaultManager = once(async () => (await modules.vaultManager()).create({ authorization }));
  const venmo = once(async () =>
    (await modules.venmo()).create({ authorization, allowDesktop: true, paymentMethodUsage: 'single_use' }),
  );
  const paypal = once(async () => (await modules.paypal()).create({ authorization }));
  let currency = '';

  const approve = async (option: WalletOptionId, amount: string): Promise<TokenizePayload> => {
    if (option === 'venmo') return (await venmo()).tokenize();
    return (await paypal()).tokenize({ flow: 'checkout', amount, currency, offerCredit: option === 'paypalCredit' });
  };

  return {
    async getConfiguration() {
      try {
        const gateway = (await client()).getConfiguration().gatewayConfiguration;
        currency = str(record(gateway.paypal).currencyIsoCode);
        const urls = { clientApiUrl: str(gateway.clientApiUrl), assetsUrl: str(gateway.assetsUrl) };
        return parseConfiguration(gateway, {
          version: 2,
          environment: '',
          authorizationFingerprint: '',
          configUrl: '',
          merchantId: '',
          ...urls,
        });
      } catch (error) {
        throw error instanceof ProviderError ? error : clientFailure(error);
      }
    },
    createHostedFields(_config, options) {
      const fields = Object.fromEntries(options.mounts.map((mount) => [mount.field, { container: mount.container }]));
      const created = modules
        .hostedFields()
        .then((module) => module.create({ authorization, fields, styles: { input: { 'font-size': '16px' } } }));
      return hostedFieldsOver(created, options);
    },
    async tokenize(fields, _config, fieldNames, vault) {
      return fields.tokenize({
        authorizationFingerprint: '',
        clientApiUrl: '',
        fields: fieldNames,
        ...(vault ? { vault: true } : {}),
      });
    },
    async listPaymentMethods() {
      const methods = await (await vaultManager()).fetchPaymentMethods({ defaultFirst: true });
      return methods.map((method) => ({
        ...resultOf(method),
        vaulted: true,
        default: method.default === true,
        hasSubscription: method.hasSubscription === true,
      }));
    },
    async deletePaymentMethod(_config, nonce) {
      await (await vaultManager()).deletePaymentMethod(nonce);
    },
    async collectDeviceData() {
      try {
        return (await (await modules.dataCollector()).create({ authorization })).deviceData;
      } catch {
        return null;
      }
    },
    // Apple Pay and Google Pay are not built on this provider yet; PayPal, PayPal Credit and Venmo open their own windows.
    canPayWith: (option) => option === 'paypal' || option === 'paypalCredit' || option === 'venmo',
    async approveWallet(request): Promise<WalletOutcome> {
      // braintree-web opens the provider's own window: the one the checkout opened is not needed.
      if (request.surface.kind === 'window') request.surface.window.close();
      try {
        const payload = await approve(request.option, request.amount);
        return { kind: 'approved', result: resultOf(payload, request.option === 'venmo' ? 'VenmoAccount' : 'PayPalAccount') };
      } catch (error) {
        const { code = '', message = String(error) } = record(error) as BraintreeError;
        // The shopper closed the provider's window or cancelled in the app (PAYPAL_POPUP_CLOSED, VENMO_CANCELED,
        // VENMO_APP_CANCELED, VENMO_DESKTOP_CANCELED): silent, as with the sandbox.
        if (/POPUP_CLOSED|CANCELED/.test(code)) return { kind: 'canceled' };
        return { kind: 'failed', detail: `${code} ${message}`.trim() };
      }
    },
    async verifyThreeDSecure(request) {
      const { card, amount, signal } = request;
      try {
        const threeDSecure = await (await modules.threeDSecure()).create({ authorization, version: 2 });
        signal.addEventListener('abort', () => void threeDSecure.cancelVerifyCard(), { once: true });
        const payload = await threeDSecure.verifyCard({
          nonce: card.nonce,
          bin: card.details.bin,
          amount,
          onLookupComplete: (_data, next) => next(),
        });
        const info = record(payload.threeDSecureInfo);
        return {
          kind: 'result',
          result: {
            ...card,
            nonce: payload.nonce,
            liabilityShifted: info.liabilityShifted === true,
            liabilityShiftPossible: info.liabilityShiftPossible === true,
            threeDSecureInfo: info,
          },
        };
      } catch (error) {
        if (signal.aborted) return { kind: 'canceled' };
        return { kind: 'failed', detail: String(record(error).message ?? error) };
      }
    },
  };
}
