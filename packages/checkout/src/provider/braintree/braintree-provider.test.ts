// The braintree-web provider through the modules' documented interfaces. MOCKED HERE: braintree-web itself, at its
// module boundary (modules.ts, `BraintreeWeb`): the real modules only talk to the provider's own https origins,
// which cannot be reached from this machine. Everything on our side of that boundary is the real code.
import { describe, expect, it, vi } from 'vitest';
import type { FrameMessage } from '../../fields/protocol.ts';
import type { FieldName, PaymentMethodResult } from '../../machine/checkout.types.ts';
import { ProviderConfigurationError } from '../provider.ts';
import { createBraintreeProvider } from './braintree-provider.ts';
import type { BraintreeWeb, HostedFieldsEvent, HostedFieldsInstance, TokenizePayload } from './modules.ts';

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
    venmo: module('venmo', {
      isBrowserSupported: () => true,
      tokenize: vi.fn(() => Promise.resolve({ nonce: 'venmo_nonce', type: 'VenmoAccount', details: { username: 'venmojoe' } })),
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
    const config = await createBraintreeProvider(AUTHORIZATION, modules).getConfiguration(new AbortController().signal);
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
      createBraintreeProvider(
        AUTHORIZATION,
        fakeBraintreeWeb({ client: () => Promise.resolve({ create: () => Promise.reject(error) }) }).modules,
      ).getConfiguration(new AbortController().signal);
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
    const provider = createBraintreeProvider(AUTHORIZATION, modules);
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
    handlers.get('validityChange')?.({ emittedBy: 'number', fields: { number: state }, cards: [] });
    expect(messages).toContainEqual(['number', { type: 'state', field: 'number', event: 'input', state }]);
    const visaCard = { type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } };
    handlers.get('cardTypeChange')?.({ emittedBy: 'number', fields: {}, cards: [visaCard] });
    expect(messages).toContainEqual(['number', { type: 'cardTypeChange', cards: [visaCard] }]);

    fields.configure('cvv', { label: 'CVV', required: true, invalid: true, errorMessage: 'This security code is not valid.' });
    expect(hostedFields.setMessage).toHaveBeenCalledWith({ field: 'cvv', message: 'This security code is not valid.' });
    expect(hostedFields.setAttribute).toHaveBeenCalledWith({ field: 'cvv', attribute: 'aria-invalid', value: true });
    fields.clear();
    expect(hostedFields.clear).toHaveBeenCalledWith('number');
    fields.teardown();
    expect(hostedFields.teardown).toHaveBeenCalled();
  });

  it('tokenizes through the hosted fields (saving when asked) and tells their errors apart', async () => {
    const { modules, hostedFields } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, modules);
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
    const provider = createBraintreeProvider(AUTHORIZATION, modules);
    const config = await provider.getConfiguration(new AbortController().signal);
    const [saved] = await provider.listPaymentMethods(config, new AbortController().signal);
    expect(saved).toMatchObject({ nonce: 'tokencc_saved', vaulted: true, default: true, hasSubscription: false });
    await provider.deletePaymentMethod(config, 'tokencc_saved');
    const vault = await (await modules.vaultManager()).create({ authorization: AUTHORIZATION });
    expect(vault.deletePaymentMethod).toHaveBeenCalledWith('tokencc_saved');
    expect(await provider.collectDeviceData(config, new AbortController().signal)).toBe('{"correlation_id":"c1"}');
  });

  it('verifies a card with 3-D Secure 2: the new nonce and the liability flags; a failure and a cancel are told apart', async () => {
    const { modules } = fakeBraintreeWeb();
    const provider = createBraintreeProvider(AUTHORIZATION, modules);
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
    expect(threeDSecure.verifyCard).toHaveBeenCalledWith(
      expect.objectContaining({ nonce: 'tokencc_visa', bin: '411111', amount: '12.00' }),
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
    const provider = createBraintreeProvider(AUTHORIZATION, modules);
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

  it('offers PayPal, PayPal Credit and Venmo, not the wallets it has not built (Apple Pay, Google Pay)', () => {
    const provider = createBraintreeProvider(AUTHORIZATION, fakeBraintreeWeb().modules);
    expect(
      ['paypal', 'paypalCredit', 'venmo', 'applePay', 'googlePay'].map((option) => provider.canPayWith(option as 'paypal')),
    ).toEqual([true, true, true, false, false]);
  });
});
