import { describe, expect, it, vi } from 'vitest';
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../fields/hosted-fields.ts';
import type { ConfigurePayload, FrameMessage } from '../fields/protocol.ts';
import type { FrameReport } from '../fields/reports.ts';
import { createTranslator } from '../i18n/i18n.ts';
import { connectCard, connectRoot } from '../machine/checkout.connect.ts';
import type { CheckoutSettings, FieldName, GatewayConfiguration } from '../machine/checkout.types.ts';
import {
  ProviderConfigurationError,
  ProviderError,
  type ProviderClient,
  type ThreeDSecureOutcome,
  type ThreeDSecureRequest,
} from '../provider/provider.ts';
import type { WalletPlugin } from '../wallets/registry.ts';
import { CheckoutError } from './checkout-error.ts';
import { CheckoutRuntime, type RuntimeOptions } from './checkout-runtime.ts';
import { OPTION_LOAD_TIMEOUT_MS } from './in-time.ts';
import type { CheckoutCallbacks } from './events.ts';
import { loadParts, loadPayment, loadTyping } from './parts/load.ts';
import {
  EMPTY,
  VALID,
  checkoutSettings,
  gatewayConfiguration,
  paymentMethodResult as result,
  savedMethod,
} from '../testing/fixtures.ts';

// The parts' imports, watched (the runtime's own calls, to the real imports).
vi.mock('./parts/load.ts', async (importOriginal) => {
  const load = await importOriginal<typeof import('./parts/load.ts')>();
  return {
    ...load,
    loadParts: vi.fn(load.loadParts),
    loadPayment: vi.fn(load.loadPayment),
    loadTyping: vi.fn(load.loadTyping),
  };
});

const config = gatewayConfiguration({ challenges: ['cvv'], supportedCardTypes: ['Visa', 'American Express'] });
const t = createTranslator();

/** A provider whose answers the test releases by hand; the frames are a recorder. */
/** `deviceData`: what the provider's collector gives (null: nothing collected); `vault`: the saved methods' calls. */
function harness(
  callbacks: CheckoutCallbacks = {},
  extra: Partial<RuntimeOptions> = {},
  deviceData: string | null = null,
  vault: Pick<ProviderClient, 'listPaymentMethods' | 'deletePaymentMethod' | 'mountsEarly'> = {
    // A guest's token: no saved methods.
    listPaymentMethods: () => Promise.resolve([]),
    deletePaymentMethod: () => Promise.reject(new Error('nothing to delete')),
  },
) {
  let answerConfig: (outcome: GatewayConfiguration | Error) => void = () => {};
  let answerTokenize: (outcome: TokenizeOutcome) => void = () => {};
  let threeDSecure: ThreeDSecureRequest | null = null;
  let answerThreeDSecure: (outcome: ThreeDSecureOutcome) => void = () => {};
  let answerSync: (heard: boolean) => void = () => {};
  let frameOptions: Omit<HostedFieldsOptions, 'assetsUrl'> | null = null;
  const configures = new Map<FieldName, ConfigurePayload>();
  const log: string[] = [];
  const fields: HostedFields = {
    channel: 'test',
    configure: (field, payload) => configures.set(field, payload),
    setCvvSize: (size) => log.push(`setCvvSize ${String(size)}`),
    focus: (field) => log.push(`focus ${field}`),
    clear: () => log.push('clear'),
    restyle: () => {
      log.push('restyle');
      return true;
    },
    // The frames' answers to `sync`, released by the test: the reports sent before them come first.
    settle: (names) => {
      log.push(`settle ${names.join(',')}`);
      return new Promise((resolve) => {
        answerSync = resolve;
      });
    },
    tokenize: () => Promise.reject(new Error('the provider tokenizes')),
    teardown: () => log.push('teardown'),
  };
  const provider: ProviderClient = {
    getConfiguration: () =>
      new Promise((resolve, reject) => {
        answerConfig = (outcome) => (outcome instanceof Error ? reject(outcome) : resolve(outcome));
      }),
    createHostedFields: (_, options) => {
      frameOptions = options;
      return fields;
    },
    tokenize: (_, __, names) => {
      log.push(`tokenize ${names.join(',')}`);
      return new Promise((resolve) => {
        answerTokenize = resolve;
      });
    },
    collectDeviceData: () => {
      log.push('collectDeviceData');
      return Promise.resolve(deviceData);
    },
    canPayWith: () => true,
    approveWallet: () => Promise.resolve({ kind: 'canceled' }),
    verifyThreeDSecure: (request) => {
      threeDSecure = request;
      return new Promise((resolve) => {
        answerThreeDSecure = resolve;
      });
    },
    ...vault,
  };
  const runtime = new CheckoutRuntime({
    authorization: 'unused with an injected provider',
    settings: checkoutSettings({ cardholderName: false, clearFieldsAfterTokenization: true }),
    translate: createTranslator(),
    callbacks: () => callbacks,
    provider,
    blurSettleMs: 5,
    ...extra,
  });
  /** A frame's message as the router hands it on: a report (a field's state, the brands, the BIN, Enter) unread. */
  const frame = (field: FieldName, message: Extract<FrameMessage, { type: 'ready' }> | FrameReport): void => {
    if (frameOptions === null) throw new Error('frames not mounted');
    frameOptions.onMessage(field, message.type === 'ready' ? message : { type: 'report', field, data: message });
  };
  const mount = (): (() => void) =>
    runtime.mountFields(
      runtime.getState().visibleFields.map((field) => ({ field, container: {} as HTMLElement, describedBy: `${field}-error` })),
    );
  const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0));
  /** The configuration reached the machine (after the parts it calls for were imported). */
  const configured = (): Promise<void> =>
    vi.waitFor(() => {
      if (runtime.getState().phase === 'loading') throw new Error('the configuration has not reached the machine yet');
    });
  return {
    runtime,
    fields,
    log,
    configures,
    frame,
    mount,
    settle,
    configured,
    answerConfig: (outcome: GatewayConfiguration | Error) => answerConfig(outcome),
    answerTokenize: (outcome: TokenizeOutcome) => answerTokenize(outcome),
    /** The frames' answers to `sync`: all of them (heard), or none in time. */
    answerSync: (heard = true) => answerSync(heard),
    threeDSecure: () => threeDSecure,
    answerThreeDSecure: (outcome: ThreeDSecureOutcome) => answerThreeDSecure(outcome),
  };
}

/** Started, its configuration loaded and its frames mounted, none of them ready yet. */
async function mountedHarness(
  callbacks: CheckoutCallbacks = {},
  extra: Partial<RuntimeOptions> = {},
  gateway = config,
  deviceData: string | null = null,
  vault?: Parameters<typeof harness>[3],
) {
  const h = harness(callbacks, extra, deviceData, vault);
  h.runtime.start();
  await h.settle();
  h.answerConfig(gateway);
  await h.configured();
  h.mount();
  return h;
}

/** Each frame ready and a valid Visa in them: the form ready this moment, the payment's part only just asked for. */
function readyWithValidVisa(h: Awaited<ReturnType<typeof mountedHarness>>): void {
  h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
  for (const field of ['number', 'expirationDate', 'cvv'] as const) {
    h.frame(field, { type: 'ready', field });
    h.frame(field, { type: 'state', field, event: 'input', state: VALID });
  }
}

/** The shopper types a complete Visa card (number, expiry, CVV) in the frames. */
function typeVisa(h: ReturnType<typeof harness>): void {
  h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
  for (const field of ['number', 'expirationDate', 'cvv'] as const)
    h.frame(field, { type: 'state', field, event: 'input', state: VALID });
}

async function readyHarness(...args: Parameters<typeof mountedHarness>) {
  const h = await mountedHarness(...args);
  for (const field of h.runtime.getState().visibleFields) h.frame(field, { type: 'ready', field });
  // Ready: the runtime has imported the typing part (as the first frame was ready) and imports the payment's part, which
  // it installs after the typing part; each is in a task after its import has settled. Both waited for: under load the
  // typing part's import could still be on its way once the payment's had settled, and the frames' reports then waited.
  await Promise.all([loadTyping(), loadPayment()]);
  await h.settle();
  return h;
}

describe('CheckoutRuntime', () => {
  it('loads, mounts the frames, configures them and announces readiness once every frame is ready', async () => {
    const onReady = vi.fn();
    const h = harness({ onReady });
    h.runtime.start();
    await h.settle();
    expect(h.runtime.getState().phase).toBe('loading');
    h.answerConfig(config);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('mounting');
    h.mount();
    expect(h.configures.get('number')).toEqual({
      label: 'Card number',
      placeholder: '1234 5678 9012 3456',
      required: true,
      invalid: false,
    });
    h.frame('number', { type: 'ready', field: 'number' });
    expect(onReady).not.toHaveBeenCalled();
    h.frame('expirationDate', { type: 'ready', field: 'expirationDate' });
    h.frame('cvv', { type: 'ready', field: 'cvv' });
    expect(h.runtime.getState().phase).toBe('ready');
    expect(onReady).toHaveBeenCalledWith(h.runtime.instance);
    expect(h.runtime.instance.getAvailablePaymentOptions()).toEqual(['card']);
  });

  /** A guest's provider that can mount the frames before the configuration has loaded. */
  const mountsEarly = {
    listPaymentMethods: () => Promise.resolve([]),
    deletePaymentMethod: () => Promise.reject(new Error('nothing to delete')),
    mountsEarly: true,
  };

  it('lets the frames mount while the configuration loads when the provider can, and is ready once the fields it shows are', async () => {
    const onReady = vi.fn();
    const h = harness({ onReady }, {}, null, mountsEarly);
    h.runtime.start();
    await h.settle();
    expect(h.runtime.getState().phase).toBe('loading');
    expect(h.runtime.canMountFields()).toBe(true);
    // Every field that may show: the configuration decides about the CVV and the postal code.
    h.mount();
    expect([...h.configures.keys()]).toEqual(['number', 'expirationDate', 'cvv', 'postalCode']);
    for (const field of ['number', 'expirationDate', 'cvv'] as const) h.frame(field, { type: 'ready', field });
    expect(onReady).not.toHaveBeenCalled();
    // The gateway challenges the CVV only: the postal code's frame, still loading, is not waited for.
    h.answerConfig(config);
    await h.configured();
    expect(h.runtime.getState().visibleFields).toEqual(['number', 'expirationDate', 'cvv']);
    expect(h.runtime.getState().phase).toBe('ready');
    expect(onReady).toHaveBeenCalledWith(h.runtime.instance);
  });

  it('fails the card once the configuration arrives when the frames mounted before it were not ready in time', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = harness({ onError }, { optionLoadTimeoutMs: 5 }, null, mountsEarly);
    h.runtime.start();
    await h.settle();
    h.mount();
    h.frame('number', { type: 'ready', field: 'number' });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(h.runtime.getState().phase).toBe('loading');
    h.answerConfig(config);
    await h.configured();
    expect(h.runtime.getState().phase).toBe('error');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'all_options_failed' }));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('The card fields did not load from'));
    errors.mockRestore();
  });

  it('waits for the frames mounted again after Try again, not the first ones: the form stays loading, the card not ready', async () => {
    const onError = vi.fn();
    const h = harness({ onError }, {}, null, mountsEarly);
    h.runtime.start();
    await h.settle();
    const unmount = h.mount();
    for (const field of ['number', 'expirationDate', 'cvv'] as const) h.frame(field, { type: 'ready', field });
    h.answerConfig(new ProviderError({ code: 'network', messageKey: 'error.network', retriable: true }, 'offline'));
    await h.settle();
    expect(h.runtime.getState().phase).toBe('error');
    // The sheet drops the card view on the error (its frames go) and draws it again with the retry (new frames).
    unmount();
    h.runtime.dispatch({ type: 'RETRY' });
    h.mount();
    h.answerConfig(config);
    await h.configured();
    expect(h.runtime.getState().phase).toBe('mounting');
    expect(connectCard(h.runtime.getState(), t).inert).toBe(true);
    h.frame('number', { type: 'ready', field: 'number' });
    expect(
      connectCard(h.runtime.getState(), t)
        .fields.filter((f) => f.inert)
        .map((f) => f.field),
    ).toEqual(['expirationDate', 'cvv']);
    for (const field of ['expirationDate', 'cvv'] as const) h.frame(field, { type: 'ready', field });
    expect(h.runtime.getState().phase).toBe('ready');
  });

  it('mounts no frame before the configuration has loaded when the provider cannot', async () => {
    const h = harness();
    h.runtime.start();
    await h.settle();
    expect(h.runtime.canMountFields()).toBe(false);
    h.mount();
    expect(() => h.frame('number', { type: 'ready', field: 'number' })).toThrow('frames not mounted');
    h.answerConfig(config);
    await h.configured();
    expect(h.runtime.canMountFields()).toBe(true);
  });

  it('tells the frames about messages and the CVV length', async () => {
    const h = await readyHarness();
    h.frame('number', {
      type: 'cardTypeChange',
      cards: [{ type: 'american-express', niceType: 'American Express', code: { name: 'CID', size: 4 } }],
    });
    expect(h.log).toContain('setCvvSize 4');
    expect(h.configures.get('cvv')?.label).toBe('CVV (4 digits)');
    h.frame('number', {
      type: 'state',
      field: 'number',
      event: 'blur',
      state: { ...VALID, isValid: false, isPotentiallyValid: false },
    });
    expect(h.configures.get('number')).toMatchObject({ invalid: true, errorMessage: 'This card number is not valid.' });
  });

  it("restyle() has the fields read the page's style, then sends each shown field's configure after it; false where the fields cannot (braintree-web's), nothing sent then", async () => {
    const h = await readyHarness();
    const view = h.runtime.getState().view;
    h.configures.clear();
    h.log.length = 0;
    expect(h.runtime.instance.restyle()).toBe(true);
    expect(h.log[0]).toBe('restyle');
    expect([...h.configures.keys()]).toEqual(h.runtime.getState().visibleFields);
    expect(h.configures.size).toBe(3);
    expect(h.configures.get('number')).toMatchObject({ label: 'Card number', invalid: false });
    // The form as it was: nothing cleared, the view kept.
    expect(h.log).not.toContain('clear');
    expect(h.runtime.getState().view).toBe(view);

    h.fields.restyle = () => false;
    h.configures.clear();
    expect(h.runtime.instance.restyle()).toBe(false);
    expect(h.configures.size).toBe(0);
  });

  it("passes the frames' reports that come before the typing part is installed on once it is, in the order they came", async () => {
    vi.mocked(loadTyping).mockClear();
    const h = await mountedHarness();
    const heard: string[] = [];
    for (const name of ['focus', 'notEmpty', 'validityChange', 'cardTypeChange'] as const)
      h.runtime.instance.on(`card:${name}`, (event) => heard.push(`${name} ${event.emittedBy}`));
    // The number's frame is ready (the typing part's import starts) and the shopper types at once.
    h.frame('number', { type: 'ready', field: 'number' });
    h.frame('number', { type: 'state', field: 'number', event: 'focus', state: { ...EMPTY, isFocused: true } });
    h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    h.frame('number', { type: 'state', field: 'number', event: 'input', state: VALID });
    expect(h.runtime.getState().fields.number.state.isFocused).toBe(false);
    expect(heard).toEqual([]);
    await vi.waitFor(() => expect(h.runtime.getState().fields.number.state).toEqual(VALID));
    expect(h.runtime.getState().cards.map((card) => card.type)).toEqual(['visa']);
    expect(heard).toEqual(['focus number', 'cardTypeChange number', 'notEmpty number', 'validityChange number']);
    expect(loadTyping).toHaveBeenCalledTimes(1);
    // Installed: a report is passed on as it comes.
    h.frame('number', { type: 'state', field: 'number', event: 'blur', state: { ...VALID, isFocused: false } });
    expect(h.runtime.getState().fields.number.state.isFocused).toBe(false);
  });

  it("installs the payment's part after the typing part: a Pay while the typing part downloads is judged by the reports typed meanwhile", async () => {
    const actual = await vi.importActual<typeof import('./parts/load.ts')>('./parts/load.ts');
    let arrive = (): void => undefined;
    const arrived = new Promise<void>((resolve) => {
      arrive = resolve;
    });
    vi.mocked(loadTyping).mockImplementationOnce(() => arrived.then(actual.loadTyping));
    const h = await mountedHarness();
    // The frames ready (the checkout too) and a valid Visa typed: its reports wait for the typing part, held back.
    readyWithValidVisa(h);
    await loadPayment();
    await h.settle();
    const request = h.runtime.instance.requestPaymentMethod();
    await h.settle();
    // Not judged by the form as the machine has it (empty): no settling, no tokenization, no submit yet.
    expect(h.log.filter((line) => line.startsWith('settle') || line.startsWith('tokenize'))).toEqual([]);
    expect(h.runtime.getState().phase).toBe('ready');
    arrive();
    await vi.waitFor(() => expect(h.log).toContain('tokenize number,expirationDate,cvv'));
    expect(h.log.some((line) => line.startsWith('settle'))).toBe(false);
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual(result);
  });

  it('fails with the reload message when the typing part did not download, as the first frame is ready', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    vi.mocked(loadTyping).mockClear().mockRejectedValueOnce(new Error('offline'));
    const onError = vi.fn();
    const h = await mountedHarness({ onError });
    h.frame('number', { type: 'ready', field: 'number' });
    h.frame('number', { type: 'state', field: 'number', event: 'input', state: VALID });
    const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
    await vi.waitFor(() => expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload })));
    expect(connectRoot(h.runtime.getState(), t)).toMatchObject({ dataState: 'error', alert: reload, retryText: null });
    // The report that waited for it is dropped: the form is gone.
    expect(h.runtime.getState().fields.number.state.isEmpty).toBe(true);
    expect(loadTyping).toHaveBeenCalledTimes(1);
    log.mockRestore();
  });

  it('empties the frames before it tells the CVV that no brand is known, so the CVV reports no digits after clearing', async () => {
    const h = await readyHarness({}, { settings: checkoutSettings({ cardholderName: false }) });
    typeVisa(h);
    h.log.length = 0;
    h.runtime.instance.clearSelectedPaymentMethod();
    expect(h.log).toEqual(['clear', 'setCvvSize null']);
  });

  it('passes Enter and the known BIN on to the integrator', async () => {
    const onInputSubmitRequest = vi.fn();
    const onBinAvailable = vi.fn();
    const h = await readyHarness({ onInputSubmitRequest, onBinAvailable });
    h.frame('number', { type: 'binAvailable', bin: '411111' });
    h.frame('cvv', { type: 'inputSubmitRequest', field: 'cvv' });
    expect(onBinAvailable).toHaveBeenCalledWith({ bin: '411111' });
    expect(onInputSubmitRequest).toHaveBeenCalledWith({ field: 'cvv' });
  });

  it('resolves requestPaymentMethod with the tokenized card and fires requestable events on change', async () => {
    const onPaymentMethodRequestable = vi.fn();
    const onNoPaymentMethodRequestable = vi.fn();
    const h = await readyHarness({ onPaymentMethodRequestable, onNoPaymentMethodRequestable });
    typeVisa(h);
    expect(onPaymentMethodRequestable).toHaveBeenCalledTimes(1);
    expect(onPaymentMethodRequestable).toHaveBeenCalledWith({ type: 'CreditCard', paymentMethodIsSelected: false });
    expect(h.runtime.instance.isPaymentMethodRequestable()).toBe(true);

    const request = h.runtime.instance.requestPaymentMethod();
    expect(h.log).toContain('tokenize number,expirationDate,cvv');
    expect(h.runtime.getState().phase).toBe('submitting');
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual(result);
    expect(h.log).toContain('clear');
    expect(onPaymentMethodRequestable).toHaveBeenLastCalledWith({ type: 'CreditCard', paymentMethodIsSelected: true });

    h.runtime.instance.clearSelectedPaymentMethod();
    // Once, with no argument, as the prop's type says (the event's payload is undefined).
    expect(onNoPaymentMethodRequestable.mock.calls).toEqual([[]]);
  });

  it("waits for the payment's part when a request comes before it has arrived, then tokenizes", async () => {
    const h = await mountedHarness();
    readyWithValidVisa(h);
    // Ready this moment: the part's import has only just started.
    const request = h.runtime.instance.requestPaymentMethod();
    expect(h.runtime.getState().phase).toBe('ready');
    await vi.waitFor(() => expect(h.log).toContain('tokenize number,expirationDate,cvv'));
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual(result);
  });

  it("shows the reload message when a submit finds the payment's part not downloaded, without Try again, and rejects with it", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    // Offline: the import the runtime starts at ready and the one the request makes again both fail.
    vi.mocked(loadPayment).mockClear().mockRejectedValueOnce(new Error('offline')).mockRejectedValueOnce(new Error('offline'));
    const onError = vi.fn();
    const h = await mountedHarness({ onError });
    readyWithValidVisa(h);
    await h.settle();
    const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
    await expect(h.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'network', message: reload });
    expect(loadPayment).toHaveBeenCalledTimes(2);
    expect(h.log.some((line) => line.startsWith('tokenize'))).toBe(false);
    // The shopper reads why Pay did nothing (the shop's page leaves a rejected request to the sheet), the integrator hears.
    expect(connectRoot(h.runtime.getState(), t)).toMatchObject({ dataState: 'error', alert: reload, retryText: null });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload }));
    expect(String(log.mock.calls.at(-1)?.[0])).toContain('Error: offline');
    log.mockRestore();
  });

  it("ends a request whose payment's part never arrives (its download stalled) with the reload message at the time limit", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    // The network holds the part's download: the import neither arrives nor fails.
    vi.mocked(loadPayment)
      .mockClear()
      .mockReturnValueOnce(new Promise(() => {}));
    const onError = vi.fn();
    const h = await mountedHarness({ onError });
    vi.useFakeTimers();
    try {
      // Ready: the import starts, and with it its time limit.
      readyWithValidVisa(h);
      let outcome: unknown = null;
      h.runtime.instance.requestPaymentMethod().catch((error: unknown) => {
        outcome = error;
      });
      await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
      expect(outcome).toBeNull();
      expect(h.runtime.getState().phase).toBe('ready');
      await vi.advanceTimersByTimeAsync(1);
      const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
      expect(outcome).toMatchObject({ code: 'network', message: reload });
      // The request waited for the import the checkout started at ready, not one of its own.
      expect(loadPayment).toHaveBeenCalledTimes(1);
      expect(connectRoot(h.runtime.getState(), t)).toMatchObject({ dataState: 'error', alert: reload, retryText: null });
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload }));
      expect(String(log.mock.calls.at(-1)?.[0])).toContain('Error: timed out');
    } finally {
      vi.useRealTimers();
      log.mockRestore();
    }
  });

  it('fails with the reload message when a view did not download (sheet.tsx), from the first view drawn while the card mounts', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = await mountedHarness({ onError });
    expect(h.runtime.getState().phase).toBe('mounting');
    h.runtime.notDownloaded(new Error('timed out'));
    const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
    expect(connectRoot(h.runtime.getState(), t)).toMatchObject({
      dataState: 'error',
      alert: reload,
      retryText: null,
      view: null,
    });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload }));
    expect(String(log.mock.calls.at(-1)?.[0])).toContain('Error: timed out');
    log.mockRestore();
  });

  it("refuses a request once the checkout is torn down with not_ready, without downloading the payment's part", async () => {
    const loads = vi.mocked(loadPayment);
    const real = loads.getMockImplementation();
    // Offline: the import the runtime starts at ready fails, and so would any other.
    loads.mockClear().mockRejectedValue(new Error('offline'));
    try {
      const h = await mountedHarness();
      readyWithValidVisa(h);
      await h.settle();
      h.runtime.destroy();
      await expect(h.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'not_ready' });
      expect(loads).toHaveBeenCalledTimes(1);
    } finally {
      if (real !== undefined) loads.mockImplementation(real);
    }
  });

  it('rejects a form still incomplete once the frames have answered, with the sheet message, then focuses the first field to fix', async () => {
    const h = await readyHarness();
    const request = h.runtime.instance.requestPaymentMethod().catch((e: unknown) => e);
    expect(h.log).toContain('settle number,expirationDate,cvv');
    h.answerSync();
    const error = await request;
    expect(error).toBeInstanceOf(CheckoutError);
    expect(error).toMatchObject({ code: 'invalid_fields', message: 'Check your entries and try again.' });
    expect(h.runtime.getState().sheetError).toBe('error.checkEntries');
    // In a task of its own, once React has shown the messages.
    expect(h.log).not.toContain('focus number');
    await h.settle();
    expect(h.log).toContain('focus number');
  });

  it("waits for the frames' reports still on their way when a submit finds the card incomplete, then tokenizes it", async () => {
    const h = await readyHarness();
    h.frame('number', { type: 'cardTypeChange', cards: [{ type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } }] });
    for (const field of ['number', 'expirationDate'] as const)
      h.frame(field, { type: 'state', field, event: 'input', state: VALID });
    // The card was filled at once and submitted at once: the CVV's last report has not arrived yet.
    const request = h.runtime.instance.requestPaymentMethod();
    expect(h.runtime.getState()).toMatchObject({ phase: 'submitting', sheetError: null });
    expect(h.log).not.toContain('tokenize number,expirationDate,cvv');
    h.frame('cvv', { type: 'state', field: 'cvv', event: 'input', state: VALID });
    h.answerSync();
    await vi.waitFor(() => expect(h.log).toContain('tokenize number,expirationDate,cvv'));
    expect(h.runtime.getState().fields.cvv.error).toBeNull();
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual(result);
  });

  it('does not judge a card whose frames did not answer in time by their reports from before: "cannot start", network, no field marked', async () => {
    const h = await readyHarness();
    for (const field of ['number', 'expirationDate'] as const)
      h.frame(field, { type: 'state', field, event: 'input', state: VALID });
    // The CVV's frame typed in before its card rules arrived: its report waits for them, and they never came.
    const request = h.runtime.instance.requestPaymentMethod().catch((e: unknown) => e);
    h.answerSync(false);
    expect(await request).toMatchObject({ code: 'network', message: t('error.invalidAuthorization') });
    const state = h.runtime.getState();
    expect(state).toMatchObject({ phase: 'ready', sheetError: 'error.invalidAuthorization' });
    expect(state.visibleFields.map((field) => state.fields[field].error)).toEqual([null, null, null]);
    expect(h.log.filter((line) => line.startsWith('tokenize'))).toEqual([]);
  });

  it('rejects with the mapped message when tokenization fails', async () => {
    const h = await readyHarness();
    typeVisa(h);
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: false, error: { code: 'network', message: 'offline' } });
    await expect(request).rejects.toMatchObject({ code: 'network', message: 'Network error. Please try again.' });
    expect(h.runtime.getState().phase).toBe('ready');
  });

  it('refuses a second request while the first is tokenized, and hands the card to the first', async () => {
    const h = await readyHarness();
    typeVisa(h);
    const first = h.runtime.instance.requestPaymentMethod();
    await expect(h.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'request_in_progress' });
    h.answerTokenize({ ok: true, result });
    await expect(first).resolves.toEqual(result);
  });

  it('honours a Retry-After on tokenization: no request reaches the gateway before it has passed', async () => {
    const h = await readyHarness();
    typeVisa(h);
    // The clock moves only when the test moves it: on a loaded machine, real milliseconds between two awaits could
    // outlast a short Retry-After and send the request the test expects to be refused.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const first = h.runtime.instance.requestPaymentMethod();
      h.answerTokenize({ ok: false, error: { code: 'rate_limited', message: '429', retryAfterMs: 40_000 } });
      await expect(first).rejects.toMatchObject({ code: 'rate_limited' });
      const tokenizations = () => h.log.filter((line) => line.startsWith('tokenize')).length;
      vi.setSystemTime(Date.now() + 39_999);
      await expect(h.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'rate_limited' });
      expect(tokenizations()).toBe(1);
      vi.setSystemTime(Date.now() + 1);
      const later = h.runtime.instance.requestPaymentMethod();
      expect(tokenizations()).toBe(2);
      h.answerTokenize({ ok: true, result });
      await expect(later).resolves.toEqual(result);
    } finally {
      vi.useRealTimers();
    }
  });

  it('reports a bad client token to onError with a fix-it message', async () => {
    const onError = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const runtime = new CheckoutRuntime({
      authorization: 'definitely not a token',
      settings: checkoutSettings(),
      translate: createTranslator(),
      callbacks: () => ({ onError }),
    });
    runtime.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(runtime.getState().phase).toBe('error');
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'invalid_authorization' }));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('not base64-encoded JSON'));
    errors.mockRestore();
  });

  it('offers a retry after a network failure', async () => {
    const onError = vi.fn();
    const h = harness({ onError });
    h.runtime.start();
    await h.settle();
    h.answerConfig(new ProviderError({ code: 'network', messageKey: 'error.network', retriable: true }, 'offline'));
    await h.settle();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'network', message: 'Network error. Please try again.' }),
    );
    h.runtime.dispatch({ type: 'RETRY' });
    expect(h.runtime.getState().phase).toBe('loading');
    await h.settle();
    h.answerConfig(config);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('mounting');
  });

  it("reports a provider client's configuration failure with its own message and a retry, even from another bundle's copy of the class", async () => {
    // @kassa/checkout/braintree is built on its own: its ProviderConfigurationError is another class than ours.
    // A query makes Vite load the module a second time (a specifier TypeScript does not resolve, hence the variable).
    const copy = '../provider/provider.ts?other-bundle';
    const otherBundle: typeof import('../provider/provider.ts') = await import(/* @vite-ignore */ copy);
    expect(otherBundle.ProviderConfigurationError).not.toBe(ProviderConfigurationError);
    const onError = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = harness({ onError });
    h.runtime.start();
    await h.settle();
    h.answerConfig(new otherBundle.ProviderConfigurationError('braintree-web could not load the configuration: boom'));
    await h.settle();
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({
        code: 'configuration_failed',
        message: 'The payment form could not be set up. Please try again.',
      }),
    );
    expect(h.runtime.getState().phase).toBe('error');
    h.runtime.dispatch({ type: 'RETRY' });
    expect(h.runtime.getState().phase).toBe('loading');
    expect(errors).toHaveBeenCalledWith('[kassa/checkout] braintree-web could not load the configuration: boom');
    errors.mockRestore();
  });

  it('survives being destroyed during set-up and during tokenization', async () => {
    const onReady = vi.fn();
    const early = harness({ onReady });
    early.runtime.start();
    early.runtime.destroy();
    await early.settle();
    early.answerConfig(config);
    await early.settle();
    expect(early.runtime.getState().phase).toBe('closed');
    expect(onReady).not.toHaveBeenCalled();

    const loading = harness({ onReady });
    loading.runtime.start();
    await loading.settle();
    loading.runtime.destroy();
    loading.answerConfig(config);
    await loading.settle();
    expect(loading.runtime.getState().phase).toBe('closed');
    expect(onReady).not.toHaveBeenCalled();

    const late = await readyHarness();
    typeVisa(late);
    const request = late.runtime.instance.requestPaymentMethod();
    late.runtime.destroy();
    expect(late.log).toContain('teardown');
    await expect(request).rejects.toMatchObject({ code: 'not_ready' });
    late.answerTokenize({ ok: true, result });
    await expect(late.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'not_ready' });
  });
});

describe('CheckoutRuntime with several ways to pay', () => {
  const withPaypal = { ...config, paypalEnabled: true };
  /** A wallet whose set-up the test settles by hand. */
  function wallet() {
    let settle: (ok: boolean) => void = () => {};
    const View = (): null => null;
    const plugin: WalletPlugin = {
      load: () =>
        new Promise((resolve, reject) => {
          settle = (ok) => (ok ? resolve(View) : reject(new Error('the PayPal SDK did not load')));
        }),
    };
    return { plugin, View, settle: (ok: boolean) => settle(ok) };
  }
  const settings = checkoutSettings({
    cardholderName: false,
    merchantEnabled: { card: true, paypal: true, paypalCredit: false, venmo: false, applePay: false, googlePay: false },
  });

  async function loaded(callbacks: CheckoutCallbacks = {}) {
    const paypal = wallet();
    const h = harness(callbacks, { settings, wallets: { paypal: paypal.plugin } });
    h.runtime.start();
    await h.settle();
    h.answerConfig(withPaypal);
    await h.configured();
    h.mount();
    return { h, paypal };
  }
  const framesReady = (h: ReturnType<typeof harness>) => {
    for (const field of h.runtime.getState().visibleFields) h.frame(field, { type: 'ready', field });
  };

  it('lists every way to pay once all have loaded, and opens the chosen one with the events', async () => {
    const onPaymentOptionSelected = vi.fn();
    const onReady = vi.fn();
    const { h, paypal } = await loaded({ onPaymentOptionSelected, onReady });
    expect(h.runtime.getState()).toMatchObject({ phase: 'mounting', view: 'options' });
    framesReady(h);
    expect(onReady).not.toHaveBeenCalled();
    paypal.settle(true);
    await h.settle();
    expect(onReady).toHaveBeenCalledTimes(1);
    expect(h.runtime.instance.getAvailablePaymentOptions()).toEqual(['card', 'paypal']);
    expect(h.runtime.walletView('paypal')).toBe(paypal.View);

    const changes: unknown[] = [];
    const record = (event: unknown) => changes.push(event);
    h.runtime.instance.on('changeActiveView', record);
    const focusCard = vi.fn();
    h.runtime.registerFocus('card', focusCard);
    h.runtime.dispatch({ type: 'SELECT_OPTION', option: 'card' });
    expect(onPaymentOptionSelected).toHaveBeenCalledWith({ paymentOption: 'card' });
    expect(changes).toEqual([{ previousViewId: 'options', newViewId: 'card' }]);
    await h.settle();
    expect(focusCard).toHaveBeenCalledTimes(1);
    h.runtime.instance.off('changeActiveView', record);
    h.runtime.dispatch({ type: 'SHOW_OPTIONS' });
    expect(changes).toHaveLength(1);
    expect(h.runtime.getState().view).toBe('options');
    // The option list is imported on demand: focus waits until it registers.
    await h.settle();
    const focusList = vi.fn();
    h.runtime.registerFocus('options', focusList);
    expect(focusList).toHaveBeenCalledTimes(1);
  });

  it('shows a wallet that failed to initialise as failed and says why in the console', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const { h, paypal } = await loaded();
    framesReady(h);
    paypal.settle(false);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('ready');
    expect(h.runtime.getState().options).toEqual([
      { id: 'card', status: 'ready' },
      { id: 'paypal', status: 'failed' },
    ]);
    expect(h.runtime.instance.getAvailablePaymentOptions()).toEqual(['card']);
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('paypal failed to initialise'), expect.any(Error));
    errors.mockRestore();
  });

  it.each([
    // Through RuntimeOptions.wallets (a Partial registry): without the fallback it would be ready with no view.
    ['offered with no loader in the registry', () => ({ wallets: {} }), 'this build has no loader for it'],
    // A wallet whose loader never answers (settle is never called).
    [
      'whose set-up has not finished within optionLoadTimeoutMs',
      () => ({ wallets: { paypal: wallet().plugin }, optionLoadTimeoutMs: 20 }),
      'it did not load in time',
    ],
  ] as const)('shows a wallet %s as failed, with no view, the card still usable', async (_, options, reason) => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = harness({}, { settings, ...options() });
    h.runtime.start();
    await h.settle();
    h.answerConfig(withPaypal);
    await h.configured();
    h.mount();
    framesReady(h);
    await vi.waitFor(() => expect(h.runtime.getState().phase).toBe('ready'));
    expect(h.runtime.getState().options).toEqual([
      { id: 'card', status: 'ready' },
      { id: 'paypal', status: 'failed' },
    ]);
    expect(h.runtime.walletView('paypal')).toBeNull();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('paypal failed to initialise'), new Error(reason));
    errors.mockRestore();
  });

  it('reports "All payment options failed to load." when the frames and the wallet all fail', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const paypal = wallet();
    const h = harness({ onError }, { settings, wallets: { paypal: paypal.plugin }, optionLoadTimeoutMs: 20 });
    h.runtime.start();
    await h.settle();
    h.answerConfig(withPaypal);
    await h.configured();
    h.mount();
    paypal.settle(false);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(h.runtime.getState().phase).toBe('error');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'all_options_failed', message: 'All payment options failed to load.' }),
    );
    errors.mockRestore();
  });

  it('tells the developer when no option is enabled', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = harness(
      { onError },
      { settings: checkoutSettings({ merchantEnabled: { ...settings.merchantEnabled, card: false, paypal: false } }) },
    );
    h.runtime.start();
    await h.settle();
    h.answerConfig(config);
    await h.settle();
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'no_payment_options' }));
    await vi.waitFor(() => expect(errors).toHaveBeenCalledWith(expect.stringContaining('No valid payment options available')));
    errors.mockRestore();
  });
});

describe('CheckoutRuntime instance', () => {
  it("passes card field events to on() handlers in the provider's shape", async () => {
    const h = await readyHarness();
    const focused = vi.fn();
    h.runtime.instance.on('card:focus', focused);
    h.frame('number', {
      type: 'state',
      field: 'number',
      event: 'focus',
      state: { ...VALID, isEmpty: true, isValid: false, isFocused: true },
    });
    expect(focused).toHaveBeenCalledWith({
      emittedBy: 'number',
      fields: expect.objectContaining({ number: expect.objectContaining({ isFocused: true }) }),
      cards: [],
    });
  });

  it("settles an empty field's blur after blurSettleMs: the shopper who left the form is no longer waited for", async () => {
    const h = await readyHarness();
    h.frame('number', { type: 'state', field: 'number', event: 'blur', state: { ...VALID, isEmpty: true, isValid: false } });
    await vi.waitFor(() => expect(h.runtime.getState().pendingEmptyBlur).toBe('number'));
    await vi.waitFor(() => expect(h.runtime.getState().pendingEmptyBlur).toBeNull());
  });

  it('changes only allow-listed options after creation and warns about the rest', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = await readyHarness();
    h.runtime.instance.updateConfiguration('card', 'clearFieldsAfterTokenization', false);
    expect(h.runtime.getState().settings.clearFieldsAfterTokenization).toBe(false);
    (h.runtime.instance.updateConfiguration as (option: string, key: string, value: unknown) => void)(
      'paypal',
      'amount',
      '10.00',
    );
    await vi.waitFor(() =>
      expect(errors).toHaveBeenCalledWith(
        expect.stringContaining("updateConfiguration('paypal', 'amount', \"10.00\") is not supported"),
      ),
    );
    errors.mockRestore();
  });

  it('tears down: frames removed, handlers dropped, requests rejected', async () => {
    const h = await readyHarness();
    const handler = vi.fn();
    h.runtime.instance.on('card:focus', handler);
    await h.runtime.instance.teardown();
    expect(h.log).toContain('teardown');
    expect(h.runtime.getState().phase).toBe('closed');
    await expect(h.runtime.instance.requestPaymentMethod()).rejects.toMatchObject({ code: 'not_ready' });
  });

  it('retries a rate-limited configuration load by itself after Retry-After', async () => {
    const h = harness();
    h.runtime.start();
    await h.settle();
    h.answerConfig(
      new ProviderError({ code: 'rate_limited', messageKey: 'error.rateLimited', retriable: true, retryAfterMs: 10 }, '429'),
    );
    await h.settle();
    expect(h.runtime.getState().phase).toBe('error');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(h.runtime.getState().phase).toBe('loading');
    h.answerConfig(config);
    await h.settle();
    expect(h.runtime.getState().phase).toBe('mounting');
  });
});

describe('CheckoutRuntime with 3-D Secure', () => {
  const secureGateway = { ...config, threeDSecureEnabled: true };
  const verified = {
    ...result,
    nonce: 'tokencc_3ds',
    liabilityShifted: true,
    liabilityShiftPossible: true,
    threeDSecureInfo: { status: 'authenticate_successful' },
  };

  async function typedCard(callbacks: CheckoutCallbacks, threeDSecure: CheckoutSettings['threeDSecure']) {
    const settings = checkoutSettings({ cardholderName: false, threeDSecure });
    const h = await readyHarness(callbacks, { settings }, secureGateway);
    typeVisa(h);
    return h;
  }

  it("verifies the tokenized card for the request's amount and resolves with the verified card", async () => {
    const h = await typedCard({}, { amount: null });
    const request = h.runtime.instance.requestPaymentMethod({ threeDSecure: { amount: '20.00' } });
    h.answerTokenize({ ok: true, result });
    await h.settle();
    expect(h.threeDSecure()).toMatchObject({ card: result, amount: '20.00', config: secureGateway });
    h.answerThreeDSecure({ kind: 'result', result: verified });
    await expect(request).resolves.toEqual(verified);
  });

  it('shows the challenge with its events, and a cancel aborts it, fires customer-canceled and rejects', async () => {
    const events: string[] = [];
    const h = await typedCard({}, { amount: '12.00' });
    for (const name of [
      'threeDSecure:authentication-modal-render',
      'threeDSecure:authentication-modal-close',
      'threeDSecure:customer-canceled',
    ] as const) {
      h.runtime.instance.on(name, () => events.push(name));
    }
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: true, result });
    await h.settle();
    const asked = h.threeDSecure();
    expect(asked?.amount).toBe('12.00');
    asked?.showChallenge('http://127.0.0.1:8090/three-d-secure/challenge.html#c');
    expect(h.runtime.getState().challengeUrl).toBe('http://127.0.0.1:8090/three-d-secure/challenge.html#c');
    h.runtime.cancelThreeDSecure();
    expect(asked?.signal.aborted).toBe(true);
    h.answerThreeDSecure({ kind: 'canceled' });
    await expect(request).rejects.toMatchObject({ code: 'three_d_secure_canceled' });
    expect(events).toEqual([
      'threeDSecure:authentication-modal-render',
      'threeDSecure:authentication-modal-close',
      'threeDSecure:customer-canceled',
    ]);
  });

  it("ends the check when its challenge's modal did not download (sheet.tsx): the reload message, the request rejects network", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const h = await typedCard({ onError }, { amount: '12.00' });
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: true, result });
    await h.settle();
    const asked = h.threeDSecure();
    asked?.showChallenge('http://127.0.0.1:8090/three-d-secure/challenge.html#c');
    h.runtime.notDownloaded(new Error('timed out'));
    const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
    await expect(request).rejects.toMatchObject({ code: 'network', message: reload });
    expect(asked?.signal.aborted).toBe(true);
    expect(h.runtime.getState()).toMatchObject({ phase: 'error', challengeUrl: null });
    expect(connectRoot(h.runtime.getState(), t)).toMatchObject({ dataState: 'error', alert: reload, retryText: null });
    expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload }));
    log.mockRestore();
  });

  it('rejects with the 3-D Secure message and says nothing is requestable when it fails or no amount was given', async () => {
    const onNoPaymentMethodRequestable = vi.fn();
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const h = await typedCard({ onNoPaymentMethodRequestable }, { amount: null });
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: true, result });
    const expected = {
      code: 'three_d_secure_failed',
      message: 'Something went wrong during 3D Secure authentication. Please try again.',
    };
    await expect(request).rejects.toMatchObject(expected);
    expect(h.threeDSecure()).toBeNull();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('3-D Secure needs the amount'));
    expect(onNoPaymentMethodRequestable).toHaveBeenCalledTimes(1);
    expect(h.log).toContain('clear');

    const failing = await typedCard({}, { amount: '12.00' });
    const second = failing.runtime.instance.requestPaymentMethod();
    failing.answerTokenize({ ok: true, result });
    await failing.settle();
    failing.answerThreeDSecure({ kind: 'failed', detail: 'HTTP 422' });
    await expect(second).rejects.toMatchObject(expected);
    expect(errors).toHaveBeenCalledWith('[kassa/checkout] 3-D Secure failed: HTTP 422');
    errors.mockRestore();
  });
});

describe('CheckoutRuntime loading parts', () => {
  it('imports the parts the configuration calls for as it arrives, while the saved methods are still being listed', async () => {
    let list: (methods: readonly never[]) => void = () => {};
    const { runtime, answerConfig, configured, settle } = harness(
      {},
      { settings: checkoutSettings({ threeDSecure: { amount: '1.00' }, vaultCard: true }) },
      null,
      {
        listPaymentMethods: () =>
          new Promise((resolve) => {
            list = resolve;
          }),
        deletePaymentMethod: () => Promise.resolve(),
      },
    );
    vi.mocked(loadParts).mockClear();
    runtime.start();
    await settle();
    answerConfig({ ...config, threeDSecureEnabled: true });
    await vi.waitFor(() => expect(loadParts).toHaveBeenCalledWith(['threeDSecure', 'savedMethods', 'otherWays']));
    expect(runtime.getState().phase).toBe('loading');
    list([]);
    await configured();
    expect(runtime.getState().phase).toBe('mounting');
  });
  it("fails the load with the reload message when a part's download stalls, at the time limit, not a loading form for good", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const loads = vi.mocked(loadParts);
    const real = loads.getMockImplementation();
    // The network holds the saved methods' part (vaultCard): its import neither arrives nor fails.
    loads.mockClear().mockReturnValue(new Promise(() => {}));
    const onError = vi.fn();
    const { runtime, answerConfig } = harness({ onError }, { settings: checkoutSettings({ vaultCard: true }) });
    vi.useFakeTimers();
    try {
      runtime.start();
      await vi.advanceTimersByTimeAsync(0);
      answerConfig(config);
      await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
      expect(loads).toHaveBeenCalledWith(['savedMethods', 'otherWays']);
      expect(runtime.getState().phase).toBe('loading');
      await vi.advanceTimersByTimeAsync(1);
      const reload = 'The payment form cannot start. Reload the page, or contact the shop if it happens again.';
      expect(connectRoot(runtime.getState(), t)).toMatchObject({ dataState: 'error', alert: reload, retryText: null });
      expect(onError).toHaveBeenCalledWith(expect.objectContaining({ code: 'network', message: reload }));
      expect(String(log.mock.calls.at(-1)?.[0])).toContain('Error: timed out');
    } finally {
      vi.useRealTimers();
      log.mockRestore();
      if (real !== undefined) loads.mockImplementation(real);
    }
  });
});

describe('CheckoutRuntime with 3-D Secure on a saved card', () => {
  it('verifies the chosen saved card when Pay asks for it, and resolves the request with the verified card', async () => {
    const saved = savedMethod({ nonce: 'n-saved' });
    const h = await readyHarness(
      {},
      { settings: checkoutSettings({ cardholderName: false, threeDSecure: { amount: '12.00' } }) },
      { ...config, threeDSecureEnabled: true },
      null,
      { listPaymentMethods: () => Promise.resolve([saved]), deletePaymentMethod: () => Promise.resolve() },
    );
    expect(h.runtime.getState().activeMethod).toEqual(saved);
    const request = h.runtime.instance.requestPaymentMethod();
    await h.settle();
    expect(h.threeDSecure()).toMatchObject({ card: saved, amount: '12.00' });
    const verified = { ...saved, nonce: 'n-verified', liabilityShifted: true, liabilityShiftPossible: true };
    h.answerThreeDSecure({ kind: 'result', result: { ...verified, threeDSecureInfo: { status: 'authenticate_successful' } } });
    await expect(request).resolves.toMatchObject({ nonce: 'n-verified', vaulted: true, liabilityShifted: true });
  });
});

describe('CheckoutRuntime device data', () => {
  it('starts collecting with the first character typed in a card field, not while the frames load nor at the reveal, once per load', async () => {
    const h = await mountedHarness();
    for (const field of h.runtime.getState().visibleFields) h.frame(field, { type: 'ready', field });
    expect(h.runtime.getState().phase).toBe('ready');
    // The typing part, which reads the frames' reports, imported as the first frame was ready: in before anything is typed.
    await loadTyping();
    await h.settle();
    // The card view focusing its first field, the CVV's frame revalidating for a new expected size: nothing typed.
    const empty = { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false };
    h.frame('number', { type: 'state', field: 'number', event: 'focus', state: { ...empty, isFocused: true } });
    h.frame('cvv', { type: 'state', field: 'cvv', event: 'input', state: empty });
    expect(h.log).not.toContain('collectDeviceData');
    h.frame('number', { type: 'state', field: 'number', event: 'input', state: VALID });
    h.frame('cvv', { type: 'state', field: 'cvv', event: 'input', state: VALID });
    expect(h.log.filter((entry) => entry === 'collectDeviceData')).toHaveLength(1);
  });

  it('starts collecting at the reveal when the first view has nothing to type (the saved methods)', async () => {
    const h = await readyHarness({}, {}, config, null, {
      listPaymentMethods: () => Promise.resolve([savedMethod({ nonce: 'n-saved' })]),
      deletePaymentMethod: () => Promise.resolve(),
    });
    expect(h.runtime.getState().view).toBe('methods');
    expect(h.log).toContain('collectDeviceData');
  });

  it("puts the collector's device data on every payment method it hands over", async () => {
    const deviceData = '{"device_session_id":"abc","fraud_merchant_id":"m1","correlation_id":"c1"}';
    const h = await readyHarness({}, {}, config, deviceData);
    typeVisa(h);
    const request = h.runtime.instance.requestPaymentMethod();
    h.answerTokenize({ ok: true, result });
    await expect(request).resolves.toEqual({ ...result, deviceData });
    // The selected card asked again carries it too.
    await expect(h.runtime.instance.requestPaymentMethod()).resolves.toEqual({ ...result, deviceData });
  });
});

describe('CheckoutRuntime deleting a saved method', () => {
  const saved = savedMethod({ nonce: 'n-saved' });

  /** Ready on the saved methods with the vault manager; the provider records deletions and lists `saved` until one succeeds. */
  async function savedMethodsHarness(callbacks: CheckoutCallbacks) {
    const deletedAtGateway: string[] = [];
    const h = await readyHarness(
      callbacks,
      { settings: checkoutSettings({ cardholderName: false, vaultManager: true }) },
      config,
      null,
      {
        listPaymentMethods: () => Promise.resolve(deletedAtGateway.length > 0 ? [] : [saved]),
        deletePaymentMethod: (_, nonce) => {
          deletedAtGateway.push(nonce);
          return Promise.resolve();
        },
      },
    );
    expect(h.runtime.getState().savedMethods).toEqual([saved]);
    h.runtime.dispatch({ type: 'EDIT_METHODS' });
    h.runtime.dispatch({ type: 'ASK_DELETE', nonce: saved.nonce });
    h.runtime.dispatch({ type: 'CONFIRM_DELETE' });
    await h.settle();
    await h.settle();
    return { h, deletedAtGateway };
  }

  it('says a preselected saved wallet is requestable with its own type (PayPalAccount), not a card', async () => {
    const onPaymentMethodRequestable = vi.fn();
    const paypal = savedMethod({ nonce: 'n-paypal', type: 'PayPalAccount', default: true });
    await readyHarness({ onPaymentMethodRequestable }, {}, config, null, {
      listPaymentMethods: () => Promise.resolve([paypal]),
      deletePaymentMethod: () => Promise.resolve(),
    });
    expect(onPaymentMethodRequestable).toHaveBeenLastCalledWith({ type: 'PayPalAccount', paymentMethodIsSelected: true });
  });

  it("deletes through onDeletePaymentMethod (the merchant's server) when given, never through the gateway's client API", async () => {
    const onDeletePaymentMethod = vi.fn(() => Promise.resolve());
    const { h, deletedAtGateway } = await savedMethodsHarness({ onDeletePaymentMethod });
    expect(onDeletePaymentMethod).toHaveBeenCalledWith(saved);
    expect(deletedAtGateway).toEqual([]);
    expect(h.runtime.getState().sheetError).toBeNull();
  });

  it('keeps the method with "Unable to delete payment method, try again." when the server refuses', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const onDeletePaymentMethod = vi.fn(() => Promise.reject(new Error('409 payment_method_has_subscription')));
    const { h, deletedAtGateway } = await savedMethodsHarness({ onDeletePaymentMethod });
    expect(deletedAtGateway).toEqual([]);
    expect(h.runtime.getState().savedMethods).toEqual([saved]);
    expect(h.runtime.getState().sheetError).toBe('error.deleteFailed');
    errors.mockRestore();
  });

  it("deletes through the gateway's client API without onDeletePaymentMethod, as the provider's drop-in does", async () => {
    const { deletedAtGateway } = await savedMethodsHarness({});
    expect(deletedAtGateway).toEqual([saved.nonce]);
  });
});
