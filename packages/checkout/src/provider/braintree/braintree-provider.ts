// The provider client for the real provider, over braintree-web (gateway.md: braintree-web only talks to the
// provider's own https origins, so the sandbox has its own client). Same interface as the sandbox's: the checkout's
// machine, views and events do not know which one runs. Each braintree-web module is imported when first used.
// Apple Pay and Google Pay: braintree-web's apple-pay and google-payment with the browsers' own payment sheets
// (payment-sheets.ts), prepared when the configuration loads so that the sheet opens in the shopper's click.
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../../fields/hosted-fields.ts';
import type { FieldName, PaymentMethodResult, PaymentMethodType } from '../../machine/checkout.types.ts';
import type { WalletOptionId } from '../../machine/payment-options.ts';
import { inTime } from '../../runtime/in-time.ts';
import { NETWORK, TIMEOUT } from '../gateway-failures.ts';
import { NEW_METHOD_DEFAULTS, str } from '../method-result.ts';
import {
  ProviderConfigurationError,
  ProviderError,
  type ProviderClient,
  type ThreeDSecureOutcome,
  type WalletOutcome,
} from '../provider.ts';
import { parseConfiguration } from '../sandbox-provider.ts';
import {
  braintreeWeb,
  type ApplePayInstance,
  type BraintreeError,
  type BraintreeWeb,
  type Client,
  type GooglePaymentInstance,
  type HostedFieldsInstance,
  type PayPalInstance,
  type TokenizePayload,
} from './modules.ts';
import { browserPaymentSheets, type PaymentSheets } from './payment-sheets.ts';

export interface BraintreeProviderOptions {
  /** Apple Pay on the web: your store's name on Safari's sheet and in the merchant validation. Unset: not offered. */
  readonly applePay?: { readonly displayName: string };
  /**
   * Google Pay: the currency of the amounts (ISO 4217) and, in production, your Google merchant id. Unset: not
   * offered. Google's pay.js is loaded from pay.google.com (CSP: script-src https://pay.google.com).
   */
  readonly googlePay?: { readonly currencyCode: string; readonly merchantId?: string };
  /** Tests: braintree-web's modules and the browsers' payment sheets, replaced at their boundary. */
  readonly modules?: BraintreeWeb;
  readonly sheets?: PaymentSheets;
}

/** The wallets whose sheet the browser can open, prepared once the configuration is known. */
interface PreparedSheets {
  applePay?: { readonly instance: ApplePayInstance; readonly session: NonNullable<ReturnType<PaymentSheets['applePaySession']>> };
  googlePay?: {
    readonly instance: GooglePaymentInstance;
    readonly client: Awaited<ReturnType<PaymentSheets['googlePaymentsClient']>>;
  };
}

/** How long the browser may take to say whether it can pay with Google Pay before Google Pay is left out. */
const SHEET_READY_TIMEOUT_MS = 5_000;

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
    ...NEW_METHOD_DEFAULTS,
  };
}

/** What the phone's or the search company's sheet answered, for the merchant (spec section 3: rawPaymentData). */
function withRawPaymentData(result: PaymentMethodResult, rawPaymentData: unknown): PaymentMethodResult {
  return { ...result, details: { ...result.details, rawPaymentData } };
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
    // Its events as the sandbox's frames report them: the typing part reads both alike.
    const report = (field: FieldName, data: Readonly<Record<string, unknown>>) =>
      options.onMessage(field, { type: 'report', field, data });
    const relay = (name: string, event: 'focus' | 'blur' | 'input') =>
      fields.on(name, (state) => {
        const field = state.emittedBy;
        const data = state.fields[field];
        if (isOurs(field) && data !== undefined) report(field, { type: 'state', field, event, state: { ...data } });
      });
    relay('focus', 'focus');
    relay('blur', 'blur');
    relay('validityChange', 'input');
    relay('empty', 'input');
    relay('notEmpty', 'input');
    fields.on('cardTypeChange', (state) => report('number', { type: 'cardTypeChange', cards: state.cards }));
    fields.on('binAvailable', (state) => report('number', { type: 'binAvailable', bin: str(state.bin) }));
    fields.on('inputSubmitRequest', (state) => {
      if (isOurs(state.emittedBy)) report(state.emittedBy, { type: 'inputSubmitRequest', field: state.emittedBy });
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
    // braintree-web takes the fields' styles only as it makes them.
    restyle: () => false,
    focus: (field) => instance?.focus(field),
    clear: () => {
      for (const field of mounted) instance?.clear(field);
    },
    // braintree-web's frames report through its own channel, with no answer to wait for; its tokenize reads them itself.
    settle: () => Promise.resolve(true),
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

/** Apple Pay when Safari can pay on this page: braintree-web's apple-pay, created now (the click makes the request). */
async function prepareApplePay(
  modules: BraintreeWeb,
  sheets: PaymentSheets,
  client: Client,
): Promise<PreparedSheets['applePay']> {
  const session = sheets.applePaySession();
  if (session === undefined || !session.supportsVersion(3) || !session.canMakePayments()) return undefined;
  return { instance: await (await modules.applePay()).create({ client }), session };
}

/** Google Pay when Google's isReadyToPay says this browser can pay: braintree-web's google-payment and Google's client. */
async function prepareGooglePay(
  modules: BraintreeWeb,
  sheets: PaymentSheets,
  client: Client,
  options: NonNullable<BraintreeProviderOptions['googlePay']>,
  environment: string,
): Promise<PreparedSheets['googlePay']> {
  const module = await modules.googlePayment();
  const instance = await module.create({
    client,
    googlePayVersion: 2,
    ...(options.merchantId === undefined ? {} : { googleMerchantId: options.merchantId }),
  });
  const payments = await sheets.googlePaymentsClient(environment === 'production' ? 'PRODUCTION' : 'TEST');
  const request = instance.createPaymentDataRequest({
    transactionInfo: { currencyCode: options.currencyCode, totalPriceStatus: 'FINAL', totalPrice: '0.00' },
  });
  const { result } = await payments.isReadyToPay({
    apiVersion: 2,
    apiVersionMinor: 0,
    allowedPaymentMethods: request.allowedPaymentMethods ?? [],
  });
  return result ? { instance, client: payments } : undefined;
}

/**
 * A wallet that cannot be prepared in time is left out, with the reason in the console (the others are still offered).
 * A checkout torn down meanwhile (`signal`: its load's) ends the wait, and its timer, at once and silently: an
 * integrator's unmount leaves nothing running.
 */
function leftOut<T>(wallet: string, preparing: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  const tornDown = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  return inTime(Promise.race([preparing, tornDown]), SHEET_READY_TIMEOUT_MS).catch((error: unknown) => {
    if (!signal.aborted) console.error(`[kassa/checkout] ${wallet} is not offered: it could not be set up`, error);
    return undefined;
  });
}

export function createBraintreeProvider(authorization: string, providerOptions: BraintreeProviderOptions = {}): ProviderClient {
  const { modules = braintreeWeb, sheets = browserPaymentSheets } = providerOptions;
  const once = <T>(load: () => Promise<T>): (() => Promise<T>) => {
    let loaded: Promise<T> | null = null;
    return () => (loaded ??= load());
  };
  const client = once(async () => (await modules.client()).create({ authorization }));
  const vaultManager = once(async () => (await modules.vaultManager()).create({ authorization }));
  /** A module's instance made once and kept at hand: a window must open in the click, with no wait before it. */
  const kept = <T>(load: () => Promise<T>) => {
    let instance: T | undefined;
    const get = once(async () => (instance = await load()));
    return { get, now: () => instance };
  };
  const venmo = kept(async () =>
    (await modules.venmo()).create({ authorization, allowDesktop: true, paymentMethodUsage: 'single_use' }),
  );
  // A Venmo account saved while paying: the shopper authorizes the shop's later charges in the app (a multi-use one).
  const venmoToSave = kept(async () =>
    (await modules.venmo()).create({ authorization, allowDesktop: true, paymentMethodUsage: 'multi_use' }),
  );
  const paypal = kept(async () => (await modules.paypal()).create({ authorization }));
  let currency = '';
  let prepared: PreparedSheets = {};
  let threeDSecureEnabled = false;

  // Made when the option is offered (canPayWith), so that braintree-web opens its window within the shopper's click
  // (a browser blocks a window opened after a wait); made now if it was not.
  const approve = (option: WalletOptionId, amount: string | null, vault: boolean): Promise<TokenizePayload> => {
    if (option === 'venmo') {
      const instance = vault ? venmoToSave : venmo;
      const ready = instance.now();
      return ready !== undefined ? ready.tokenize() : instance.get().then((made) => made.tokenize());
    }
    // Saved for later (no amount: PayPal's vault flow; with one, saved while paying, then charged as a saved method):
    // a billing agreement the gateway can save. Otherwise a one-time payment of the amount.
    const tokenize = (instance: PayPalInstance) =>
      instance.tokenize(
        vault || amount === null
          ? { flow: 'vault' }
          : { flow: 'checkout', amount, currency, offerCredit: option === 'paypalCredit' },
      );
    const ready = paypal.now();
    return ready !== undefined ? tokenize(ready) : paypal.get().then(tokenize);
  };

  /** Safari's sheet, begun in the click (it must be): validation and tokenization go through braintree-web. */
  const approveWithApplePay = (
    { instance, session: ApplePaySession }: NonNullable<PreparedSheets['applePay']>,
    displayName: string,
    amount: string,
  ): Promise<PaymentMethodResult> =>
    new Promise((resolve, reject) => {
      const session = new ApplePaySession(3, instance.createPaymentRequest({ total: { label: displayName, amount } }));
      session.onvalidatemerchant = (event) => {
        instance.performValidation({ validationURL: event.validationURL, displayName }).then(
          (merchantSession) => session.completeMerchantValidation(merchantSession),
          (error: unknown) => {
            session.abort();
            reject(error);
          },
        );
      };
      session.onpaymentauthorized = (event) => {
        instance.tokenize({ token: event.payment.token }).then(
          (payload) => {
            session.completePayment(ApplePaySession.STATUS_SUCCESS);
            resolve(withRawPaymentData(resultOf(payload, 'ApplePayCard'), event.payment));
          },
          (error: unknown) => {
            session.completePayment(ApplePaySession.STATUS_FAILURE);
            reject(error);
          },
        );
      };
      session.oncancel = () => reject({ code: 'APPLE_PAY_CANCELED' });
      session.begin();
    });

  /** Google's sheet, opened in the click; a card that is not a network token gets 3-D Secure like a card. */
  const approveWithGooglePay = async (
    { instance, client: payments }: NonNullable<PreparedSheets['googlePay']>,
    currencyCode: string,
    amount: string,
    signal: AbortSignal,
  ): Promise<PaymentMethodResult> => {
    const sheet = payments.loadPaymentData(
      instance.createPaymentDataRequest({ transactionInfo: { currencyCode, totalPriceStatus: 'FINAL', totalPrice: amount } }),
    );
    const paymentData = await sheet.catch((error: unknown) => {
      throw record(error).statusCode === 'CANCELED' ? { code: 'GOOGLE_PAY_CANCELED' } : error;
    });
    const payload = await instance.parseResponse(paymentData);
    const card = withRawPaymentData(resultOf(payload, 'AndroidPayCard'), paymentData);
    // The provider's rule: a Google Pay card that is not a network token is a card for 3-D Secure (gateway.md).
    if (!threeDSecureEnabled || payload.details.isNetworkTokenized !== false) return card;
    const verified = await verifyCard(card, amount, signal);
    if (verified.kind === 'result') return verified.result;
    throw verified.kind === 'canceled' ? { code: 'THREEDS_CANCELED' } : new Error(verified.detail);
  };

  const verifyCard = async (card: PaymentMethodResult, amount: string, signal: AbortSignal): Promise<ThreeDSecureOutcome> => {
    try {
      const threeDSecure = await (await modules.threeDSecure()).create({ authorization, version: 2 });
      signal.addEventListener('abort', () => void threeDSecure.cancelVerifyCard(), { once: true });
      const payload = await threeDSecure.verifyCard({
        nonce: card.nonce,
        bin: card.details.bin,
        amount,
        // The shopper's browser (screen, language, time zone) with the lookup, as the provider recommends: the issuer
        // authenticates without a challenge more often.
        collectDeviceData: true,
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
  };

  /** The approval in the wallet's own UI: braintree-web's windows, or the browser's sheet (begun synchronously). */
  const walletResult = (
    option: WalletOptionId,
    amount: string | null,
    vault: boolean,
    signal: AbortSignal,
  ): Promise<PaymentMethodResult> => {
    if (option === 'applePay' || option === 'googlePay') {
      if (amount === null) return Promise.reject(new Error(`${option} needs an amount`));
      if (option === 'applePay' && prepared.applePay !== undefined && providerOptions.applePay !== undefined)
        return approveWithApplePay(prepared.applePay, providerOptions.applePay.displayName, amount);
      if (option === 'googlePay' && prepared.googlePay !== undefined && providerOptions.googlePay !== undefined)
        return approveWithGooglePay(prepared.googlePay, providerOptions.googlePay.currencyCode, amount, signal);
      return Promise.reject(new Error(`${option} was not prepared`));
    }
    return approve(option, amount, vault).then((payload) =>
      resultOf(payload, option === 'venmo' ? 'VenmoAccount' : 'PayPalAccount'),
    );
  };

  return {
    async getConfiguration(signal) {
      try {
        const created = await client();
        const gateway = created.getConfiguration().gatewayConfiguration;
        currency = str(record(gateway.paypal).currencyIsoCode);
        threeDSecureEnabled = gateway.threeDSecureEnabled === true;
        const urls = { clientApiUrl: str(gateway.clientApiUrl), assetsUrl: str(gateway.assetsUrl) };
        const config = parseConfiguration(gateway, { authorizationFingerprint: '', configUrl: '', ...urls });
        // The sheets must be ready before the click that opens them; each is asked only when it can be offered.
        const { applePay, googlePay } = providerOptions;
        const [applePaySheet, googlePaySheet] = await Promise.all([
          config.applePayWeb && applePay !== undefined
            ? leftOut('applePay', prepareApplePay(modules, sheets, created), signal)
            : undefined,
          config.androidPay && googlePay !== undefined
            ? leftOut('googlePay', prepareGooglePay(modules, sheets, created, googlePay, str(gateway.environment)), signal)
            : undefined,
        ]);
        prepared = {
          ...(applePaySheet === undefined ? {} : { applePay: applePaySheet }),
          ...(googlePaySheet === undefined ? {} : { googlePay: googlePaySheet }),
        };
        return config;
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
    // PayPal, PayPal Credit and Venmo open braintree-web's windows; Apple Pay and Google Pay when their sheet is ready.
    canPayWith(option) {
      if (option === 'applePay') return prepared.applePay !== undefined;
      if (option === 'googlePay') return prepared.googlePay !== undefined;
      // Offered: its instance is made now, ready for the click (a failure shows when the shopper presses the button).
      for (const instance of option === 'venmo' ? [venmo, venmoToSave] : [paypal]) void instance.get().catch(() => {});
      return true;
    },
    // braintree-web and the browsers show every wallet's own UI (even Venmo's QR code): the checkout opens nothing.
    ownWalletUi: true,
    async approveWallet(request): Promise<WalletOutcome> {
      try {
        const result = await walletResult(request.option, request.amount, request.vault === true, request.signal);
        return { kind: 'approved', result };
      } catch (error) {
        const { code = '', message = String(error) } = record(error) as BraintreeError;
        // The shopper closed the provider's window, cancelled in the app or closed the sheet (PAYPAL_POPUP_CLOSED,
        // VENMO_CANCELED, VENMO_APP_CANCELED, VENMO_DESKTOP_CANCELED, APPLE_PAY_CANCELED, GOOGLE_PAY_CANCELED, a
        // cancelled 3-D Secure challenge): silent, as with the sandbox.
        if (/POPUP_CLOSED|CANCELED/.test(code)) return { kind: 'canceled' };
        return { kind: 'failed', detail: `${code} ${message}`.trim() };
      }
    },
    verifyThreeDSecure: ({ card, amount, signal }) => verifyCard(card, amount, signal),
  };
}
