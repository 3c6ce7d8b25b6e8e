// The braintree-web provider through the modules' documented interfaces. MOCKED HERE: braintree-web itself, at its
// module boundary (modules.ts, `BraintreeWeb`): the real modules only talk to the provider's own https origins,
// which cannot be reached from this machine. Everything on our side of that boundary is the real code. STOOD IN FOR
// as well: the browsers' payment sheets (payment-sheets.ts: Safari's ApplePaySession, Google Pay's PaymentsClient),
// which this machine's Chromium does not have; the stand-ins answer as Apple's and Google's documentation says.
import { describe, expect, it, vi } from 'vitest';
import type { FrameMessage } from '../../fields/protocol.ts';
import { createTranslator } from '../../i18n/i18n.ts';
import { parseReport } from '../../fields/reports.ts';
import type { FieldName, PaymentMethodResult } from '../../machine/checkout.types.ts';
import { CheckoutRuntime } from '../../runtime/checkout-runtime.ts';
import { checkoutSettings } from '../../testing/fixtures.ts';
import { ProviderConfigurationError } from '../provider.ts';
import { createBraintreeProvider } from './braintree-provider.ts';
import type { BraintreeWeb, HostedFieldsEvent, HostedFieldsInstance, TokenizePayload } from './modules.ts';
import type { ApplePaySessionInstance, GooglePaymentsClient, PaymentSheets } from './payment-sheets.ts';

const AUTHORIZATION = 'sandbox_client_token_from_the_server';
const gatewayConfiguration = {
  environment: 'sandbox',
  merchantId: 'merchant1',
  clientApiUrl: 'https://api.sandbox.braintreegateway.com:443/merchants/merchant1/client_api',
  assetsUrl: 'https://assets.braintreegateway.com',
  challenges: ['cvv'],
  creditCards: { supportedCardTypes: ['Visa', 'MasterCard'] },
  threeDSecureEnabled: true,
  paypalEnabled: true,
  paypal: { currencyIsoCode: 'EUR' },
  payWithVenmo: { merchantId: 'venmo1' },
  applePayWeb: { countryCode: 'US' },
};
const visa: TokenizePayload = {
  nonce: 'tokencc_visa',
  type: 'CreditCard',
  description: 'ending in 11',
  details: { bin: '411111', cardType: 'Visa', lastFour: '1111', lastTwo: '11', expirationMonth: '12', expirationYear: '2030' },
};

/** braintree-web as a test drives it: each module's create records its options and answers as documented. */
function fakeBraintreeWeb(overrides: Partial<Record<keyof BraintreeWeb, unknown>> = {}) {
  const created: Record<string, unknown> = {};
  const handlers = new Map<string, (event: HostedFieldsEvent & { bin?: string }) => void>();
  const hostedFields: HostedFieldsInstance = {
    on: (event, handler) => void handlers.set(event, handler),
    setAttribute: vi.fn(() => Promise.resolve()),
    removeAttribute: vi.fn(() => Promise.resolve()),
    setMessage: vi.fn(),
    focus: vi.fn(),
    clear: vi.fn(),
    tokenize: vi.fn(() => Promise.resolve(visa)),
    teardown: vi.fn(() => Promise.resolve()),
  };
  const module =
    <T>(name: string, instance: T) =>
    () =>
      Promise.resolve({
        create: (options: unknown) => {
          created[name] = options;
          return Promise.resolve(instance);
        },
      });
  const venmoInstance = (nonce: string) => ({
    isBrowserSupported: () => true,
    tokenize: vi.fn(() => Promise.resolve({ nonce, type: 'VenmoAccount', details: { username: 'venmojoe' } })),
  });
  const venmos = { single_use: venmoInstance('venmo_nonce'), multi_use: venmoInstance('venmo_multi_use_nonce') };
  const modules = {
    client: module('client', { getConfiguration: () => ({ gatewayConfiguration }) }),
    hostedFields: module('hostedFields', hostedFields),
    dataCollector: module('dataCollector', { deviceData: '{"correlation_id":"c1"}' }),
    threeDSecure: module('threeDSecure', {
      verifyCard: vi.fn(() =>
        Promise.resolve({
          ...visa,
          nonce: 'tokencc_3ds',
          threeDSecureInfo: { liabilityShifted: true, liabilityShiftPossible: true, status: 'authenticate_successful' },
        }),
      ),
      cancelVerifyCard: vi.fn(() => Promise.resolve()),
      teardown: vi.fn(() => Promise.resolve()),
    }),
    vaultManager: module('vaultManager', {
      fetchPaymentMethods: vi.fn(() =>
        Promise.resolve([{ ...visa, nonce: 'tokencc_saved', default: true, hasSubscription: false }]),
      ),
      deletePaymentMethod: vi.fn(() => Promise.resolve()),
    }),
    // One instance per use: a single payment, or one the shopper authorizes for later charges too.
    venmo: () =>
      Promise.resolve({
        create: (options: { paymentMethodUsage: 'single_use' | 'multi_use' }) =>
          Promise.resolve(venmos[options.paymentMethodUsage]),
      }),
    applePay: module('applePay', {
      createPaymentRequest: vi.fn((request: object) => ({ countryCode: 'US', currencyCode: 'EUR', ...request })),
      performValidation: vi.fn(() => Promise.resolve({ merchantSession: 'from the provider' })),
      tokenize: vi.fn(() =>
        Promise.resolve({
          nonce: 'applepay_nonce',
          type: 'ApplePayCard',
          description: 'Visa 1111',
          details: { cardType: 'Apple Pay - Visa', dpanLastTwo: '11', paymentInstrumentName: 'Visa 1111' },
        }),
      ),
    }),
    googlePayment: module('googlePayment', {
      createPaymentDataRequest: vi.fn((overrides: object) => ({
        apiVersion: 2,
        allowedPaymentMethods: [{ type: 'CARD' }],
        ...overrides,
      })),
      parseResponse: vi.fn(() =>
        Promise.resolve({
          nonce: 'googlepay_nonce',
          type: 'AndroidPayCard',
          description: 'Visa 1111',
          details: { cardType: 'Visa', lastFour: '1111', lastTwo: '11', isNetworkTokenized: true },
        }),
      ),
    }),
    paypal: module('paypal', {
      tokenize: vi.fn(() =>
        Promise.resolve({ nonce: 'paypal_nonce', type: 'PayPalAccount', details: { email: 'shopper@paypal.example' } }),
      ),
    }),
    ...overrides,
  } as BraintreeWeb;
  return { modules, created, hostedFields, handlers };
}

const window = () => ({ kind: 'window', window: { close: vi.fn() } as unknown as Window }) as const;

describe('the braintree-web provider', () => {
  it("reads the gateway configuration from braintree-web's client, created with the server's authorization", async () => {
    const { modules, created } = fakeBraintreeWeb();
    const config = await createBraintreeProvider(AUTHORIZATION, { modules }).getConfiguration(new AbortController().signal);
    expect(created.client).toEqual({ authorization: AUTHORIZATION });
    expect(config).toMatchObject({
      clientApiUrl: gatewayConfiguration.clientApiUrl,
      assetsUrl: gatewayConfiguration.assetsUrl,
      challenges: ['cvv'],
      creditCards: { supportedCardTypes: ['Visa', 'MasterCard'] },
      threeDSecureEnabled: true,
      paypalEnabled: true,
      payWithVenmo: true,
      applePayWeb: true,
      androidPay: false,
    });
  });

  it("turns a client that cannot be created into a configuration failure, and braintree-web's network codes into theirs", async () => {
    const failing = (error: unknown) =>
      createBraintreeProvider(AUTHORIZATION, {
        modules: fakeBraintreeWeb({ client: () => Promise.resolve({ create: () => Promise.reject(error) }) }).modules,
      }).getConfiguration(new AbortController().signal);
    const refused = failing({ code: 'CLIENT_AUTHORIZATION_INVALID', message: 'Authorization is invalid.' });
    await expect(refused).rejects.toBeInstanceOf(ProviderConfigurationError);
    await expect(refused).rejects.toMatchObject({
      info: { code: 'configuration_failed', messageKey: 'error.configurationFailed', retriable: true },
      message: 'braintree-web could not load the configuration: CLIENT_AUTHORIZATION_INVALID Authorization is invalid.',
    });
    await expect(failing(new Error('Failed to fetch dynamically imported module'))).rejects.toBeInstanceOf(
      ProviderConfigurationError,
    );
    await expect(failing({ code: 'CLIENT_GATEWAY_NETWORK', message: 'Cannot contact the gateway.' })).rejects.toMatchObject({
      info: { code: 'network', messageKey: 'error.network' },
    });
    await expect(failing({ code: 'CLIENT_REQUEST_TIMEOUT', message: 'Request timed out.' })).rejects.toMatchObject({
      info: { code: 'timeout' },
    });
    await expect(failing({ code: 'CLIENT_RATE_LIMITED', message: 'Too many requests.' })).rejects.toMatchObject({
      info: { code: 'rate_limited' },
    });
  });

  it("mounts braintree-web's hosted fields in our containers and relays their events as our frame messages", async () => {
    const { modules, created, hostedFields, handlers } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const messages: [FieldName, FrameMessage][] = [];
    const container = (name: string) => ({ id: name }) as unknown as HTMLElement;
    const fields = provider.createHostedFields(config, {
      mounts: [
        { field: 'number', container: container('n'), title: 'Card number', describedBy: 'n-error' },
        { field: 'cvv', container: container('c'), title: 'CVV', describedBy: 'c-error' },
      ],
      onMessage: (field, message) => messages.push([field, message]),
    });
    await vi.waitFor(() => expect(messages).toContainEqual(['cvv', { type: 'ready', field: 'cvv' }]));
    expect(created.hostedFields).toMatchObject({
      authorization: AUTHORIZATION,
      fields: { number: { container: container('n') }, cvv: { container: container('c') } },
    });

    const state = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: true };
    // Handed on as the sandbox's frames report: the typing part reads them alike (reports.ts).
    const reports = () =>
      messages.flatMap(([field, message]) => (message.type === 'report' ? [parseReport(field, message.data)] : []));
    handlers.get('validityChange')?.({ emittedBy: 'number', fields: { number: state }, cards: [] });
    expect(reports()).toContainEqual({ type: 'state', field: 'number', event: 'input', state });
    const visaCard = { type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } };
    handlers.get('cardTypeChange')?.({ emittedBy: 'number', fields: {}, cards: [visaCard] });
    expect(reports()).toContainEqual({ type: 'cardTypeChange', cards: [visaCard] });
    handlers.get('binAvailable')?.({ emittedBy: 'number', fields: {}, cards: [], bin: '411111' });
    expect(reports()).toContainEqual({ type: 'binAvailable', bin: '411111' });
    handlers.get('inputSubmitRequest')?.({ emittedBy: 'cvv', fields: {}, cards: [] });
    expect(reports()).toContainEqual({ type: 'inputSubmitRequest', field: 'cvv' });

    fields.configure('cvv', { label: 'CVV', required: true, invalid: true, errorMessage: 'This security code is not valid.' });
    expect(hostedFields.setMessage).toHaveBeenCalledWith({ field: 'cvv', message: 'This security code is not valid.' });
    expect(hostedFields.setAttribute).toHaveBeenCalledWith({ field: 'cvv', attribute: 'aria-invalid', value: true });
    fields.clear();
    expect(hostedFields.clear).toHaveBeenCalledWith('number');
    fields.teardown();
    expect(hostedFields.teardown).toHaveBeenCalled();
  });

  it("cannot restyle braintree-web's fields where they are (it takes their styles only as it makes them): a checkout's restyle() is false, so the page mounts it again, and the fields are left as they are", async () => {
    const { modules, hostedFields } = fakeBraintreeWeb();
    const runtime = new CheckoutRuntime({
      authorization: AUTHORIZATION,
      provider: createBraintreeProvider(AUTHORIZATION, { modules }),
      settings: checkoutSettings({ cardholderName: false }),
      translate: createTranslator(),
      callbacks: () => ({}),
    });
    runtime.start();
    await vi.waitFor(() => expect(runtime.getState().config).not.toBeNull());
    runtime.mountFields(
      runtime
        .getState()
        .visibleFields.map((field) => ({ field, container: { id: field } as unknown as HTMLElement, describedBy: 'e' })),
    );
    await vi.waitFor(() => expect(runtime.getState().framesReady.length).toBeGreaterThan(0));
    const asked = vi.mocked(hostedFields.setAttribute).mock.calls.length;
    expect(runtime.instance.restyle()).toBe(false);
    expect(vi.mocked(hostedFields.setAttribute).mock.calls.length).toBe(asked);
    expect(hostedFields.teardown).not.toHaveBeenCalled();
    runtime.destroy();
  });

  it('tokenizes through the hosted fields (saving when asked) and tells their errors apart', async () => {
    const { modules, hostedFields } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const fields = provider.createHostedFields(config, { mounts: [], onMessage: () => {} });
    const outcome = await provider.tokenize(fields, config, ['number', 'expirationDate', 'cvv'], true);
    expect(hostedFields.tokenize).toHaveBeenCalledWith({ vault: true });
    expect(outcome).toMatchObject({
      ok: true,
      result: { nonce: 'tokencc_visa', type: 'CreditCard', details: { cardType: 'Visa', lastFour: '1111' } },
    });

    vi.mocked(hostedFields.tokenize).mockRejectedValueOnce({
      code: 'HOSTED_FIELDS_FIELDS_INVALID',
      message: 'Some payment input fields are invalid.',
    });
    expect(await provider.tokenize(fields, config, ['number'], false)).toMatchObject({
      ok: false,
      error: { code: 'invalid_fields' },
    });
    vi.mocked(hostedFields.tokenize).mockRejectedValueOnce({
      code: 'HOSTED_FIELDS_TOKENIZATION_FAIL_ON_DUPLICATE',
      message: 'duplicate',
    });
    expect(await provider.tokenize(fields, config, ['number'], true)).toMatchObject({
      ok: false,
      error: { code: 'duplicate_card' },
    });
  });

  it('lists and deletes saved methods through the vault manager, and collects device data', async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const [saved] = await provider.listPaymentMethods(config, new AbortController().signal);
    expect(saved).toMatchObject({ nonce: 'tokencc_saved', vaulted: true, default: true, hasSubscription: false });
    await provider.deletePaymentMethod(config, 'tokencc_saved');
    const vault = await (await modules.vaultManager()).create({ authorization: AUTHORIZATION });
    expect(vault.deletePaymentMethod).toHaveBeenCalledWith('tokencc_saved');
    expect(await provider.collectDeviceData(config, new AbortController().signal)).toBe('{"correlation_id":"c1"}');
  });

  it("verifies a card with 3-D Secure 2, the shopper's browser data sent with the lookup: the new nonce and the liability flags; a failure and a cancel are told apart", async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const card = { nonce: 'tokencc_visa', details: { bin: '411111' } } as PaymentMethodResult;
    const request = { card, amount: '12.00', config, showChallenge: () => {}, signal: new AbortController().signal };
    expect(await provider.verifyThreeDSecure(request)).toMatchObject({
      kind: 'result',
      result: {
        nonce: 'tokencc_3ds',
        liabilityShifted: true,
        liabilityShiftPossible: true,
        threeDSecureInfo: { status: 'authenticate_successful' },
      },
    });
    const threeDSecure = await (await modules.threeDSecure()).create({ authorization: AUTHORIZATION, version: 2 });
    // collectDeviceData: braintree-web adds the browser's screen, language and time zone to the lookup request.
    expect(threeDSecure.verifyCard).toHaveBeenCalledWith(
      expect.objectContaining({ nonce: 'tokencc_visa', bin: '411111', amount: '12.00', collectDeviceData: true }),
    );

    vi.mocked(threeDSecure.verifyCard).mockRejectedValueOnce({ code: 'THREEDS_LOOKUP_ERROR', message: 'lookup failed' });
    expect(await provider.verifyThreeDSecure(request)).toEqual({ kind: 'failed', detail: 'lookup failed' });
    const abort = new AbortController();
    vi.mocked(threeDSecure.verifyCard).mockImplementationOnce(() => {
      abort.abort();
      return Promise.reject(new Error('cancelled'));
    });
    expect(await provider.verifyThreeDSecure({ ...request, signal: abort.signal })).toEqual({ kind: 'canceled' });
    expect(threeDSecure.cancelVerifyCard).toHaveBeenCalled();
  });

  it("approves PayPal (credit too) and Venmo in the provider's own windows; a closed window is a silent cancel", async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const ask = (option: 'paypal' | 'paypalCredit' | 'venmo') =>
      provider.approveWallet({ option, amount: '12.00', config, surface: window(), signal: new AbortController().signal });

    expect(await ask('paypalCredit')).toMatchObject({
      kind: 'approved',
      result: { nonce: 'paypal_nonce', type: 'PayPalAccount', details: { email: 'shopper@paypal.example' } },
    });
    const paypal = await (await modules.paypal()).create({ authorization: AUTHORIZATION });
    expect(paypal.tokenize).toHaveBeenCalledWith({ flow: 'checkout', amount: '12.00', currency: 'EUR', offerCredit: true });
    expect(await ask('venmo')).toMatchObject({
      kind: 'approved',
      result: { type: 'VenmoAccount', details: { username: 'venmojoe' } },
    });

    vi.mocked(paypal.tokenize).mockRejectedValueOnce({
      code: 'PAYPAL_POPUP_CLOSED',
      message: 'Customer closed PayPal popup before authorizing.',
    });
    expect(await ask('paypal')).toEqual({ kind: 'canceled' });
    vi.mocked(paypal.tokenize).mockRejectedValueOnce({
      code: 'PAYPAL_TOKENIZATION_REQUEST_ACTIVE',
      message: 'Another tokenization request is active.',
    });
    expect(await ask('paypal')).toEqual({
      kind: 'failed',
      detail: 'PAYPAL_TOKENIZATION_REQUEST_ACTIVE Another tokenization request is active.',
    });
  });

  it("runs PayPal's vault flow when asked (no amount: tokenize({ flow: 'vault' })), and refuses a sheet without an amount", async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const signal = new AbortController().signal;
    expect(
      await provider.approveWallet({ option: 'paypal', amount: null, vault: true, config, surface: window(), signal }),
    ).toMatchObject({
      kind: 'approved',
      result: { type: 'PayPalAccount', details: { email: 'shopper@paypal.example' } },
    });
    const paypal = await (await modules.paypal()).create({ authorization: AUTHORIZATION });
    expect(paypal.tokenize).toHaveBeenCalledWith({ flow: 'vault' });
    expect(await provider.approveWallet({ option: 'applePay', amount: null, config, surface: window(), signal })).toMatchObject({
      kind: 'failed',
      detail: 'applePay needs an amount',
    });
  });

  it("approves PayPal and Venmo to be saved while paying: a billing agreement (PayPal's vault flow) and a multi-use Venmo authorization", async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    const signal = new AbortController().signal;
    const save = (option: 'paypal' | 'venmo') =>
      provider.approveWallet({ option, amount: '12.00', vault: true, config, surface: { kind: 'provider' }, signal });
    expect(await save('paypal')).toMatchObject({ kind: 'approved', result: { type: 'PayPalAccount' } });
    const paypal = await (await modules.paypal()).create({ authorization: AUTHORIZATION });
    expect(paypal.tokenize).toHaveBeenCalledWith({ flow: 'vault' });
    expect(await save('venmo')).toMatchObject({ kind: 'approved', result: { nonce: 'venmo_multi_use_nonce' } });
    const venmo = (usage: 'single_use' | 'multi_use') =>
      modules
        .venmo()
        .then((module) => module.create({ authorization: AUTHORIZATION, allowDesktop: true, paymentMethodUsage: usage }));
    expect((await venmo('single_use')).tokenize).not.toHaveBeenCalled();
  });

  it("calls PayPal's and Venmo's tokenize within the click once they were offered (a window opened after a wait is blocked)", async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, { modules });
    const config = await provider.getConfiguration(new AbortController().signal);
    expect([provider.canPayWith('paypal'), provider.canPayWith('venmo')]).toEqual([true, true]);
    const paypal = await (await modules.paypal()).create({ authorization: AUTHORIZATION });
    const venmo = await (await modules.venmo()).create({
      authorization: AUTHORIZATION,
      allowDesktop: true,
      paymentMethodUsage: 'single_use',
    });
    await new Promise((resolve) => setTimeout(resolve, 0));
    const ask = (option: 'paypal' | 'venmo') =>
      provider.approveWallet({
        option,
        amount: '12.00',
        config,
        surface: { kind: 'provider' },
        signal: new AbortController().signal,
      });
    const paying = ask('paypal');
    expect(paypal.tokenize).toHaveBeenCalledTimes(1);
    const payingWithVenmo = ask('venmo');
    expect(venmo.tokenize).toHaveBeenCalledTimes(1);
    expect(await paying).toMatchObject({ kind: 'approved' });
    expect(await payingWithVenmo).toMatchObject({ kind: 'approved' });
  });

  it('shows every wallet in its own UI: the checkout opens no window for it', () => {
    expect(createBraintreeProvider(AUTHORIZATION, { modules: fakeBraintreeWeb().modules }).ownWalletUi).toBe(true);
  });
});

/** STAND-IN for Safari's ApplePaySession (this machine's Chromium has none): records each session the provider begins. */
function applePaySessions(canMakePayments = true) {
  const sessions: FakeApplePaySession[] = [];
  class FakeApplePaySession implements ApplePaySessionInstance {
    static readonly STATUS_SUCCESS = 0;
    static readonly STATUS_FAILURE = 1;
    static supportsVersion(version: number): boolean {
      return version <= 3;
    }
    static canMakePayments(): boolean {
      return canMakePayments;
    }
    onvalidatemerchant: ApplePaySessionInstance['onvalidatemerchant'] = null;
    onpaymentauthorized: ApplePaySessionInstance['onpaymentauthorized'] = null;
    oncancel: ApplePaySessionInstance['oncancel'] = null;
    readonly begin = vi.fn();
    readonly abort = vi.fn();
    readonly completeMerchantValidation = vi.fn();
    readonly completePayment = vi.fn();
    constructor(
      readonly version: number,
      readonly request: Readonly<Record<string, unknown>>,
    ) {
      sessions.push(this);
    }
  }
  return { ApplePaySession: FakeApplePaySession, sessions };
}

/** STAND-IN for Google Pay's PaymentsClient (pay.js; this machine cannot load it): says ready, answers the sheet. */
function googlePayments(ready = true) {
  const paymentData = { apiVersion: 2, paymentMethodData: { tokenizationData: { token: '{"androidPayCards":[]}' } } };
  const client = {
    isReadyToPay: vi.fn(() => Promise.resolve({ result: ready })),
    loadPaymentData: vi.fn((_request: Readonly<Record<string, unknown>>): Promise<unknown> => Promise.resolve(paymentData)),
  } satisfies GooglePaymentsClient;
  return { client, paymentData };
}

const withGooglePay = { ...gatewayConfiguration, androidPay: { enabled: true, supportedNetworks: ['visa'] } };
const provided = { kind: 'provider' } as const;

describe("the braintree-web provider with Apple Pay and Google Pay (the browsers' sheets stood in for)", () => {
  function provider(
    options: { sheets: Partial<PaymentSheets>; applePay?: boolean; googlePay?: boolean; gateway?: object },
    overrides: Parameters<typeof fakeBraintreeWeb>[0] = {},
  ) {
    const gateway = options.gateway ?? withGooglePay;
    const fake = fakeBraintreeWeb({
      client: () =>
        Promise.resolve({ create: () => Promise.resolve({ getConfiguration: () => ({ gatewayConfiguration: gateway }) }) }),
      ...overrides,
    });
    const sheets: PaymentSheets = {
      applePaySession: () => undefined,
      googlePaymentsClient: () => Promise.resolve(googlePayments(false).client),
      ...options.sheets,
    };
    const client = createBraintreeProvider(AUTHORIZATION, {
      modules: fake.modules,
      sheets,
      ...(options.applePay === false ? {} : { applePay: { displayName: 'Kassa Coffee' } }),
      ...(options.googlePay === false ? {} : { googlePay: { currencyCode: 'EUR' } }),
    });
    return { ...fake, client };
  }
  const request = (
    option: 'applePay' | 'googlePay',
    config: Awaited<ReturnType<ReturnType<typeof createBraintreeProvider>['getConfiguration']>>,
  ) => ({ option, amount: '12.00', config, surface: provided, signal: new AbortController().signal }) as const;

  it("offers Apple Pay only with the store's name, the gateway's applePayWeb and a Safari that can pay on the page", async () => {
    const offered = async (options: Parameters<typeof provider>[0]) => {
      const { client } = provider(options);
      await client.getConfiguration(new AbortController().signal);
      return client.canPayWith('applePay');
    };
    const { ApplePaySession } = applePaySessions();
    expect(await offered({ sheets: { applePaySession: () => ApplePaySession } })).toBe(true);
    expect(await offered({ sheets: { applePaySession: () => ApplePaySession }, applePay: false })).toBe(false);
    expect(await offered({ sheets: { applePaySession: () => applePaySessions(false).ApplePaySession } })).toBe(false);
    expect(await offered({ sheets: {} })).toBe(false);
    const { applePayWeb: _off, ...withoutApplePay } = withGooglePay;
    expect(await offered({ sheets: { applePaySession: () => ApplePaySession }, gateway: withoutApplePay })).toBe(false);
  });

  it("begins Safari's sheet in the click, validates the merchant and tokenizes through braintree-web; cancel is silent", async () => {
    const { ApplePaySession, sessions } = applePaySessions();
    const { client, modules, created } = provider({ sheets: { applePaySession: () => ApplePaySession } });
    const config = await client.getConfiguration(new AbortController().signal);
    const applePay = await (await modules.applePay()).create({ client: {} as never });
    expect(created.applePay).toHaveProperty('client');

    const approval = client.approveWallet(request('applePay', config));
    // Synchronously, in the click: Safari refuses a sheet begun later.
    expect(sessions).toHaveLength(1);
    const [session] = sessions;
    expect(session?.version).toBe(3);
    expect(session?.request).toMatchObject({ currencyCode: 'EUR', total: { label: 'Kassa Coffee', amount: '12.00' } });
    expect(session?.begin).toHaveBeenCalled();
    const validationURL = 'https://apple-pay-gateway.apple.com/paymentservices/startSession';
    session?.onvalidatemerchant?.({ validationURL });
    await vi.waitFor(() =>
      expect(session?.completeMerchantValidation).toHaveBeenCalledWith({ merchantSession: 'from the provider' }),
    );
    expect(applePay.performValidation).toHaveBeenCalledWith({ validationURL, displayName: 'Kassa Coffee' });
    const payment = { token: { paymentData: { data: 'encrypted by Apple' } } };
    session?.onpaymentauthorized?.({ payment });
    expect(await approval).toMatchObject({
      kind: 'approved',
      result: { nonce: 'applepay_nonce', type: 'ApplePayCard', description: 'Visa 1111', details: { rawPaymentData: payment } },
    });
    expect(applePay.tokenize).toHaveBeenCalledWith({ token: payment.token });
    expect(session?.completePayment).toHaveBeenCalledWith(ApplePaySession.STATUS_SUCCESS);

    const canceled = client.approveWallet(request('applePay', config));
    sessions[1]?.oncancel?.({});
    expect(await canceled).toEqual({ kind: 'canceled' });

    vi.mocked(applePay.tokenize).mockRejectedValueOnce({
      code: 'APPLE_PAY_TOKENIZATION',
      message: 'Apple Pay tokenization failed.',
    });
    const refused = client.approveWallet(request('applePay', config));
    sessions[2]?.onpaymentauthorized?.({ payment });
    expect(await refused).toEqual({ kind: 'failed', detail: 'APPLE_PAY_TOKENIZATION Apple Pay tokenization failed.' });
    expect(sessions[2]?.completePayment).toHaveBeenCalledWith(ApplePaySession.STATUS_FAILURE);
  });

  it("offers Google Pay only when Google's isReadyToPay says yes, asked with braintree-web's payment methods", async () => {
    for (const ready of [true, false]) {
      const google = googlePayments(ready);
      const { client, created } = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(google.client) } });
      await client.getConfiguration(new AbortController().signal);
      expect(client.canPayWith('googlePay')).toBe(ready);
      expect(created.googlePayment).toMatchObject({ googlePayVersion: 2 });
      expect(google.client.isReadyToPay).toHaveBeenCalledWith({
        apiVersion: 2,
        apiVersionMinor: 0,
        allowedPaymentMethods: [{ type: 'CARD' }],
      });
    }
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { client } = provider({ sheets: { googlePaymentsClient: () => Promise.reject(new Error('no Google Pay here')) } });
    await client.getConfiguration(new AbortController().signal);
    expect(client.canPayWith('googlePay')).toBe(false);
    expect(errors).toHaveBeenCalledWith('[kassa/checkout] googlePay is not offered: it could not be set up', expect.any(Error));
    expect(await client.approveWallet(request('googlePay', await client.getConfiguration(new AbortController().signal)))).toEqual(
      {
        kind: 'failed',
        detail: 'googlePay was not prepared',
      },
    );
    errors.mockRestore();
  });

  it("leaves Google Pay out when isReadyToPay has not answered in 5 s, and a torn-down checkout's wait ends at once, its timer and console with it", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const never = { ...googlePayments().client, isReadyToPay: vi.fn(() => new Promise<never>(() => {})) };
    try {
      const { client } = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(never) } });
      const loading = client.getConfiguration(new AbortController().signal);
      await vi.waitFor(() => expect(never.isReadyToPay).toHaveBeenCalled());
      await vi.advanceTimersByTimeAsync(5_000);
      await loading;
      expect(client.canPayWith('googlePay')).toBe(false);
      expect(errors).toHaveBeenCalledWith('[kassa/checkout] googlePay is not offered: it could not be set up', expect.any(Error));
      errors.mockClear();

      const unmounted = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(never) } });
      const abort = new AbortController();
      const abandoned = unmounted.client.getConfiguration(abort.signal);
      await vi.waitFor(() => expect(never.isReadyToPay).toHaveBeenCalledTimes(2));
      expect(vi.getTimerCount()).toBe(1);
      abort.abort();
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(0);
      await abandoned;
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      vi.useRealTimers();
    }
  });

  it('a checkout torn down before its wallet sheets are asked (its load already aborted) keeps no 5 s wait and says nothing', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const never = { ...googlePayments().client, isReadyToPay: vi.fn(() => new Promise<never>(() => {})) };
    try {
      const { client } = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(never) } });
      const torn = new AbortController();
      torn.abort();
      const abandoned = client.getConfiguration(torn.signal);
      await vi.waitFor(() => expect(never.isReadyToPay).toHaveBeenCalled());
      await vi.advanceTimersByTimeAsync(0);
      expect(vi.getTimerCount()).toBe(0);
      await abandoned;
      expect(client.canPayWith('googlePay')).toBe(false);
      expect(errors).not.toHaveBeenCalled();
    } finally {
      errors.mockRestore();
      vi.useRealTimers();
    }
  });

  it("opens Google's sheet in the click for the amount and hands over braintree-web's nonce; CANCELED is silent", async () => {
    const google = googlePayments();
    const { client } = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(google.client) } });
    const config = await client.getConfiguration(new AbortController().signal);
    const approval = client.approveWallet(request('googlePay', config));
    expect(google.client.loadPaymentData).toHaveBeenCalledWith(
      expect.objectContaining({ transactionInfo: { currencyCode: 'EUR', totalPriceStatus: 'FINAL', totalPrice: '12.00' } }),
    );
    expect(await approval).toMatchObject({
      kind: 'approved',
      result: {
        nonce: 'googlepay_nonce',
        type: 'AndroidPayCard',
        details: { cardType: 'Visa', lastFour: '1111', rawPaymentData: google.paymentData },
        liabilityShifted: undefined,
      },
    });
    google.client.loadPaymentData.mockRejectedValueOnce({ statusCode: 'CANCELED' });
    expect(await client.approveWallet(request('googlePay', config))).toEqual({ kind: 'canceled' });
    google.client.loadPaymentData.mockRejectedValueOnce({ statusCode: 'DEVELOPER_ERROR', statusMessage: 'bad merchant' });
    expect(await client.approveWallet(request('googlePay', config))).toMatchObject({ kind: 'failed' });
  });

  it('verifies a Google Pay card that is not a network token with 3-D Secure, as the provider treats it as a card', async () => {
    const google = googlePayments();
    const { client, modules } = provider({ sheets: { googlePaymentsClient: () => Promise.resolve(google.client) } });
    const config = await client.getConfiguration(new AbortController().signal);
    const googlePay = await (await modules.googlePayment()).create({ client: {} as never, googlePayVersion: 2 });
    vi.mocked(googlePay.parseResponse).mockResolvedValueOnce({
      nonce: 'googlepay_pan_only',
      type: 'AndroidPayCard',
      details: { cardType: 'Visa', lastFour: '1111', bin: '411111', isNetworkTokenized: false },
    });
    expect(await client.approveWallet(request('googlePay', config))).toMatchObject({
      kind: 'approved',
      result: { nonce: 'tokencc_3ds', type: 'AndroidPayCard', liabilityShifted: true, liabilityShiftPossible: true },
    });
    const threeDSecure = await (await modules.threeDSecure()).create({ authorization: AUTHORIZATION, version: 2 });
    expect(threeDSecure.verifyCard).toHaveBeenCalledWith(
      expect.objectContaining({ nonce: 'googlepay_pan_only', bin: '411111', amount: '12.00' }),
    );
    // A network token (authenticated on the phone) is handed over as it is.
    vi.mocked(threeDSecure.verifyCard).mockClear();
    expect(await client.approveWallet(request('googlePay', config))).toMatchObject({ result: { nonce: 'googlepay_nonce' } });
    expect(threeDSecure.verifyCard).not.toHaveBeenCalled();
  });
});
