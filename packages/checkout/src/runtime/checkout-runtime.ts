// Runs the view machine in a browser: feeds it frame messages, provider answers and option set-ups, performs the
// effects it asks for, and exposes the instance handed to onReady. One runtime per mounted <Checkout>; destroy()
// undoes everything.
import type { ComponentType } from 'react';
import type { HostedFields } from '../fields/hosted-fields.ts';
import type { FrameMessage } from '../fields/protocol.ts';
import { fieldLabel, fieldPlaceholder } from '../i18n/field-text.ts';
import type { Translate } from '../i18n/i18n.ts';
import { createCheckoutMachine, type CheckoutMachine } from '../machine/checkout.machine.ts';
import {
  NOT_DOWNLOADED,
  type CheckoutEffect,
  type CheckoutErrorInfo,
  type CheckoutEvent,
  type CheckoutEventMap,
  type CheckoutEventName,
  type CheckoutSettings,
  type CheckoutState,
  type FieldName,
  type GatewayConfiguration,
  type PaymentMethodResult,
  type ViewId,
} from '../machine/checkout.types.ts';
import { cvvSize, isFieldRequired } from '../machine/field-rules.ts';
import { offeredOptions, type PaymentOptionId, type WalletOptionId } from '../machine/payment-options.ts';
import { CONFIGURATION_FAILED, isProviderError, ProviderError, type ProviderClient } from '../provider/provider.ts';
import { createSandboxProvider } from '../provider/sandbox-provider.ts';
import type { WalletRegistry } from '../wallets/registry.ts';
import { CheckoutError } from './checkout-error.ts';
import { CheckoutEmitter, type CheckoutCallbacks } from './events.ts';
import { inTime, OPTION_LOAD_TIMEOUT_MS } from './in-time.ts';
import { reportOptionProblem, type WalletOptions } from './options.ts';
import { loadParts, loadPayment, loadTyping, partsNeeded } from './parts/load.ts';
import type { PartEffect, PartHost, RuntimePart } from './parts/part.ts';
import type { Payment } from './parts/payment.ts';
import type { TypingPart } from './parts/typing.ts';

export type { PaymentOptionId as PaymentOption } from '../machine/payment-options.ts';

/** What can change after creation through updateConfiguration(); anything else needs a new checkout. */
export interface UpdatableConfiguration {
  readonly card: { readonly clearFieldsAfterTokenization: boolean };
}

/** What one requestPaymentMethod() call may add: the amount 3-D Secure authenticates, when the option left it open. */
export interface RequestPaymentMethodOptions {
  readonly threeDSecure?: { readonly amount: string };
}

export interface CheckoutInstance {
  /**
   * Validates and tokenizes the card (or returns the card already tokenized), then runs 3-D Secure when it is on;
   * rejects with a CheckoutError.
   */
  requestPaymentMethod(options?: RequestPaymentMethodOptions): Promise<PaymentMethodResult>;
  isPaymentMethodRequestable(): boolean;
  /** Forgets the tokenized card and empties the form: call it once the payment is done, or after a decline. */
  clearSelectedPaymentMethod(): void;
  /** The ways to pay that loaded, in display order. */
  getAvailablePaymentOptions(): readonly PaymentOptionId[];
  /** Changes one option after creation (allow-listed in UpdatableConfiguration); anything else warns and is ignored. */
  updateConfiguration<O extends keyof UpdatableConfiguration, K extends keyof UpdatableConfiguration[O]>(
    option: O,
    key: K,
    value: UpdatableConfiguration[O][K],
  ): void;
  /**
   * Gives the card fields the page's colours and font again after its theme changed, what was typed and the view kept
   * (the fields read them from their containers as they are made). False where the provider's fields take them only
   * then (braintree-web's): mount the checkout again to restyle them.
   */
  restyle(): boolean;
  /** Removes the frames, listeners and timers; the checkout shows nothing afterwards. */
  teardown(): Promise<void>;
  on<E extends CheckoutEventName>(event: E, handler: (payload: CheckoutEventMap[E]) => void): void;
  off<E extends CheckoutEventName>(event: E, handler: (payload: CheckoutEventMap[E]) => void): void;
}

export interface RuntimeOptions {
  readonly authorization: string;
  readonly settings: CheckoutSettings;
  readonly translate: Translate;
  /** Read on every call so the latest React props are used. */
  readonly callbacks: () => CheckoutCallbacks;
  /** The merchant's options per wallet (the checkout's options, read by wallet), handed to the wallet when it loads. */
  readonly walletOptions?: Readonly<Partial<Record<WalletOptionId, WalletOptions>>> | undefined;
  /** Overrides the provider chosen from the token (tests, future providers). */
  readonly provider?: ProviderClient;
  /** Overrides the wallets' loaders (tests). */
  readonly wallets?: WalletRegistry;
  /**
   * How long an option may take to initialise (the card's frames, a wallet's set-up) before it counts as failed;
   * OPTION_LOAD_TIMEOUT_MS if not given.
   */
  readonly optionLoadTimeoutMs?: number;
  readonly blurSettleMs?: number;
}

export interface FieldContainer {
  readonly field: FieldName;
  readonly container: HTMLElement;
  readonly describedBy: string;
}

/** The events views send for the shopper's gestures: a way to pay chosen, the toggle, Try again, the saved methods'. */
export type ShopperEvent = Extract<
  CheckoutEvent,
  {
    readonly type:
      | 'SELECT_OPTION'
      | 'SHOW_OPTIONS'
      | 'RETRY'
      | 'SELECT_METHOD'
      | 'EDIT_METHODS'
      | 'DONE_EDITING'
      | 'ASK_DELETE'
      | 'CONFIRM_DELETE'
      | 'CANCEL_DELETE'
      | 'SET_SAVE_CARD';
  }
>;

/** Where focus goes when the shopper opens a view, or when the sheet's message must be read first. */
export type FocusTarget = PaymentOptionId | 'options' | 'methods' | 'delete-confirmation' | 'alert';

export const OPTION_FAILED_NOTE = 'failed to initialise and is shown disabled; the other ways to pay still work.';

// Its private members are ES private (`#`), not TypeScript's `private`: the minifier renames them, where it kept each
// name in the card view's chunk (issue 10).
export class CheckoutRuntime {
  readonly instance: CheckoutInstance;
  readonly #machine: CheckoutMachine;
  readonly #options: RuntimeOptions;
  readonly #emitter: CheckoutEmitter;
  readonly #focusHandlers = new Map<FocusTarget, () => void>();
  #pendingFocus: FocusTarget | null = null;
  #provider: ProviderClient | null = null;
  /** Why no provider could be made from the token: reported once the runtime starts. */
  #providerError: unknown;
  #fields: HostedFields | null = null;
  /** The frames mounted have had their time to get ready (optionLoadTimeoutMs). */
  #framesLate = false;
  #loadAbort: AbortController | null = null;
  /** The parts loaded on demand (saved methods, 3-D Secure, wallets), and what they see of this runtime. */
  #parts: readonly RuntimePart[] = [];
  readonly #partHost: PartHost | null;
  /** The payment's part: its import, started once the checkout is ready (a request waits for it), and once installed. */
  #paymentLoad: Promise<Payment> | null = null;
  #payment: Payment | null = null;
  /**
   * The typing part (the frames' reports once a card can be typed): its import, started as the first frame is ready,
   * true once installed, false when it did not download; and the part once installed.
   */
  #typing: Promise<boolean> | null = null;
  #typingPart: TypingPart | null = null;
  /** The device data collected for this checkout (null: none), started once it is ready. */
  #deviceData: Promise<string | null> = Promise.resolve(null);
  /** The load (its abort signal) the device data was collected for. */
  #deviceDataFor: AbortSignal | null = null;
  readonly #timers = new Set<ReturnType<typeof setTimeout>>();
  #destroyed = false;

  constructor(options: RuntimeOptions) {
    this.#options = options;
    // Made now (reading the token has no side effect), so the card view can mount the frames before begin() has run.
    try {
      this.#provider = options.provider ?? createSandboxProvider(options.authorization);
    } catch (error) {
      this.#providerError = error;
    }
    this.#machine = createCheckoutMachine(options.settings);
    this.#emitter = new CheckoutEmitter(options.callbacks);
    const provider = this.#provider;
    // What the parts see of this runtime (without a provider the checkout never loads, so no part is ever installed).
    this.#partHost =
      provider === null
        ? null
        : {
            provider,
            getState: () => this.#machine.getState(),
            send: (event) => this.#send(event),
            callbacks: () => this.#options.callbacks(),
            emit: (event, payload, prop) => this.#emitter.emit(event, payload, prop),
            fields: () => this.#fields,
            deviceData: () => {
              this.#collectDeviceData();
              return this.#deviceData;
            },
            options,
            later: (ms, task) => this.#later(ms, task),
            walletViews: new Map(),
            requestedAmount: null,
            threeDSecureAbort: null,
          };
    this.instance = {
      requestPaymentMethod: (options) => this.#requestPaymentMethod(options),
      isPaymentMethodRequestable: () => this.#machine.getState().requestability.requestable,
      clearSelectedPaymentMethod: () => this.#send({ type: 'CLEAR_SELECTION' }),
      getAvailablePaymentOptions: () =>
        this.#machine
          .getState()
          .options.filter((entry) => entry.status === 'ready')
          .map((entry) => entry.id),
      updateConfiguration: (option, key, value) => this.#updateConfiguration(option, String(key), value),
      // Without frames there is nothing to restyle; with the new style read, the frames' configure differs and goes.
      restyle: () => {
        if (this.#fields?.restyle() === false) return false;
        this.#syncFrames();
        return true;
      },
      teardown: () => {
        this.destroy();
        return Promise.resolve();
      },
      on: (event, handler) => this.#emitter.on(event, handler),
      off: (event, handler) => this.#emitter.off(event, handler),
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => this.#machine.subscribe(listener);
  readonly getState = (): CheckoutState => this.#machine.getState();

  /**
   * Starts on the next microtask: StrictMode mounts, unmounts and re-mounts synchronously, so the first runtime is
   * already destroyed by then and neither fetches nor reports anything twice.
   */
  start(): void {
    queueMicrotask(() => {
      if (!this.#destroyed) this.#begin();
    });
  }

  #begin(): void {
    if (this.#provider === null) this.#fail(this.#providerError);
    else this.#loadConfiguration();
  }

  /** A shopper's gesture a view forwards (the machine decides what it does). */
  readonly dispatch = (event: ShopperEvent): void => this.#send(event);

  focusField(field: FieldName): void {
    this.#fields?.focus(field);
  }

  /** A wallet's view, once its module has loaded (null before, and for every other view). */
  walletView(view: ViewId): ComponentType | null {
    return this.#partHost?.walletViews.get(view) ?? null;
  }

  /**
   * A view says how to focus its first control. A request made before the view was on screen (a lazily loaded
   * view) is honoured as soon as it registers.
   */
  registerFocus(target: FocusTarget, focus: () => void): () => void {
    this.#focusHandlers.set(target, focus);
    if (this.#pendingFocus === target) {
      this.#pendingFocus = null;
      focus();
    }
    return () => {
      if (this.#focusHandlers.get(target) === focus) this.#focusHandlers.delete(target);
    };
  }

  /** After React has shown the new view (a hidden frame cannot take focus), or when its view registers. */
  #requestFocus(target: FocusTarget): void {
    this.#pendingFocus = target;
    this.#later(0, () => {
      const focus = this.#focusHandlers.get(target);
      if (focus === undefined || this.#pendingFocus !== target) return;
      this.#pendingFocus = null;
      focus();
    });
  }

  #updateConfiguration(option: string, key: string, value: unknown): void {
    if (option === 'card' && key === 'clearFieldsAfterTokenization' && typeof value === 'boolean') {
      this.#send({ type: 'UPDATE_SETTINGS', settings: { clearFieldsAfterTokenization: value } });
      return;
    }
    reportOptionProblem({ kind: 'updateConfiguration', option, key, value });
  }

  /**
   * Code the checkout needs did not download, or not in time (`what`: a part, a view): nothing can go on before a
   * reload, which alone loads it (NOT_DOWNLOADED), and the sheet says so.
   */
  notDownloaded(error: unknown): void {
    this.#fail(new ProviderError(NOT_DOWNLOADED, String(error)));
  }

  /** The shopper cancelled the 3-D Secure challenge (Escape on the modal frame). */
  cancelThreeDSecure(): void {
    this.#partHost?.threeDSecureAbort?.abort();
  }

  /** Whether the card view may mount the frames now: with the configuration, or before it when the provider can. */
  canMountFields(): boolean {
    return this.#provider?.mountsEarly === true || this.#machine.getState().config !== null;
  }

  /**
   * Mounts the frames into the card view's containers (before the configuration has loaded, every field that may
   * show: the view drops those it then hides, frame included); returns the clean-up for the view's effect.
   */
  mountFields(containers: readonly FieldContainer[]): () => void {
    const state = this.#machine.getState();
    const { config } = state;
    if (this.#destroyed || this.#provider === null || !this.canMountFields()) return () => {};
    const fields = this.#provider.createHostedFields(config, {
      mounts: containers.map((c) => ({ ...c, title: fieldLabel(c.field, state.cards, this.#options.translate) })),
      onMessage: (field, message) => this.#onFrameMessage(field, message),
    });
    this.#fields = fields;
    this.#framesLate = false;
    // New frames, none ready yet; the machine's change has send() configure them.
    this.#send({ type: 'FIELDS_MOUNTED' });
    const timer = this.#later(this.#options.optionLoadTimeoutMs ?? OPTION_LOAD_TIMEOUT_MS, () => {
      this.#framesLate = true;
      this.#settleCard();
    });
    return () => {
      this.#clearTimer(timer);
      fields.teardown();
      if (this.#fields === fields) this.#fields = null;
    };
  }

  destroy(): void {
    if (this.#destroyed) return;
    this.#machine.send({ type: 'TEARDOWN' });
    this.#destroyed = true;
    this.#emitter.clear();
    this.#focusHandlers.clear();
    this.#loadAbort?.abort();
    this.#partHost?.threeDSecureAbort?.abort();
    for (const timer of this.#timers) clearTimeout(timer);
    this.#timers.clear();
    this.#fields?.teardown();
    this.#fields = null;
    this.#payment?.teardown();
  }

  #requestPaymentMethod(options?: RequestPaymentMethodOptions): Promise<PaymentMethodResult> {
    const t = this.#options.translate;
    // A submit and its outcome are the payment's part: here since the checkout became ready, else waited for.
    if (this.#payment !== null) return this.#payment.request(options);
    // Nothing can be paid before the checkout is ready (without a provider, and so a host for the part, it never is) or
    // once it is torn down: said now, not after downloading the part for nothing (offline, answered with network).
    if (this.#partHost === null || this.#machine.getState().phase !== 'ready')
      return Promise.reject(new CheckoutError('not_ready', t('error.notReady')));
    return this.#preparePayment(this.#partHost).then(
      (payment) => payment.request(options),
      (error: unknown) => {
        // No card can be paid without it: the sheet says so, as for a part that did not download as the checkout loaded.
        this.notDownloaded(error);
        throw new CheckoutError(NOT_DOWNLOADED.code, t(NOT_DOWNLOADED.messageKey));
      },
    );
  }

  /**
   * Imports and installs the payment's part once; an import that failed, or did not arrive in time, is tried again by
   * the next request.
   */
  #preparePayment(host: PartHost): Promise<Payment> {
    // After the typing part: a submit judges the card by the reports it passed on.
    this.#paymentLoad ??= inTime(Promise.all([loadPayment(), this.#typing])).then(
      ([part]) => {
        this.#machine.install(part.machine);
        this.#payment = part.create(host);
        return this.#payment;
      },
      (error: unknown) => {
        this.#paymentLoad = null;
        throw error;
      },
    );
    return this.#paymentLoad;
  }

  #loadConfiguration(): void {
    const provider = this.#provider;
    if (provider === null) return;
    this.#loadAbort?.abort();
    const abort = new AbortController();
    this.#loadAbort = abort;
    provider.getConfiguration(abort.signal).then(
      (config: GatewayConfiguration) => {
        if (!abort.signal.aborted) this.#configurationLoaded(config, abort.signal);
      },
      (error: unknown) => {
        if (!abort.signal.aborted) this.#fail(error);
      },
    );
  }

  #configurationLoaded(config: GatewayConfiguration, signal: AbortSignal): void {
    const { settings } = this.#options;
    const options = offeredOptions(config, settings.paymentOptionPriority, settings.merchantEnabled, (option) => {
      return option === 'card' || this.#provider?.canPayWith(option) === true;
    });
    if (options.length === 0) reportOptionProblem({ kind: 'noPaymentOptions' });
    // The parts the configuration calls for are fetched now, beside the saved methods' list (the import below is then
    // the same one, not a second download); a failure is reported there.
    loadParts(partsNeeded(config, settings, options, [])).catch(() => undefined);
    // Saved methods come before the first view; a list that cannot be had leaves the shopper the other ways to pay.
    const provider = this.#provider;
    const listed = provider === null ? Promise.resolve([]) : provider.listPaymentMethods(config, signal);
    void listed
      .catch((error: unknown) => {
        console.error('[kassa/checkout] the saved payment methods could not be listed', error);
        return [];
      })
      // The machine's parts this checkout can need are in place before its first view (a card-only checkout has none).
      .then((savedMethods) =>
        inTime(loadParts(partsNeeded(config, settings, options, savedMethods))).then(
          (parts) => {
            if (signal.aborted) return;
            this.#installParts(parts);
            this.#optionsOffered(config, options, savedMethods, signal);
          },
          // A part's chunk did not download (the import's error names its URL), or not in time.
          (error: unknown) => {
            if (!signal.aborted) this.notDownloaded(error);
          },
        ),
      );
  }

  /**
   * Device data, once per load. Its collector's frame is on the gateway's origin, in the card frames' renderer: started
   * with the configuration it slowed the frames' loading, and at the reveal the shopper's first keystrokes (issue 10).
   * So it starts with the first character typed in a card field, at the reveal of any other first view (nothing to
   * type there), and at the latest with the payment method's result, which waits for it briefly (DEVICE_DATA_WAIT_MS).
   */
  #collectDeviceData(): void {
    const { config } = this.#machine.getState();
    const signal = this.#loadAbort?.signal;
    if (this.#provider === null || config === null || signal === undefined || this.#deviceDataFor === signal) return;
    this.#deviceDataFor = signal;
    this.#deviceData = this.#provider.collectDeviceData(config, signal);
  }

  #installParts(parts: readonly RuntimePart[]): void {
    for (const part of parts) this.#machine.install(part.machine);
    this.#parts = parts;
  }

  #optionsOffered(
    config: GatewayConfiguration,
    options: readonly PaymentOptionId[],
    savedMethods: readonly PaymentMethodResult[],
    signal: AbortSignal,
  ): void {
    this.#send({ type: 'CONFIG_LOADED', config, options, savedMethods });
    // Frames mounted before the configuration may be ready, or late, already.
    this.#settleCard();
    // The wallets' set-up, their part's (a card-only checkout has none).
    const host = this.#partHost;
    if (host !== null) for (const part of this.#parts) part.start?.(host, config, options, signal);
  }

  #fail(error: unknown): void {
    const info: CheckoutErrorInfo = isProviderError(error) ? error.info : CONFIGURATION_FAILED;
    if (!isProviderError(error)) console.error('[kassa/checkout] unexpected load failure', error);
    // The developer's part: what to fix (a bad token), or what the provider client could not set up.
    else if (!info.retriable || info.code === 'configuration_failed') console.error(`[kassa/checkout] ${error.message}`);
    this.#send({ type: 'CONFIG_FAILED', error: info });
  }

  /**
   * The card is ready once the frame of every field it shows is, and failed when they were not all ready in time: not
   * before the configuration says which fields it shows.
   */
  #settleCard(): void {
    const { config, visibleFields, framesReady, phase } = this.#machine.getState();
    if (config === null) return;
    if (visibleFields.every((field) => framesReady.includes(field))) this.#send({ type: 'OPTION_READY', option: 'card' });
    else if (this.#framesLate && phase === 'mounting') {
      console.error(`[kassa/checkout] The card fields did not load from ${config.assetsUrl}: the card ${OPTION_FAILED_NOTE}`);
      this.#send({ type: 'OPTION_FAILED', option: 'card' });
    }
  }

  #onFrameMessage(field: FieldName, message: FrameMessage): void {
    if (message.type === 'ready') {
      this.#send({ type: 'FRAME_READY', field });
      this.#settleCard();
      this.#afterTyping();
    } else if (message.type === 'report') this.#afterTyping(message);
    // The tokenization's answers and the frames' syncs settle in the fields module.
  }

  /**
   * Passes a frame's report to the typing part once it is installed, and imports it (once) if it is not: until it is
   * in, the reports wait for it, in the order they came. One that did not download, or not in time, fails the checkout
   * as a part does (a reload loads it).
   */
  #afterTyping(report?: Extract<FrameMessage, { type: 'report' }>): void {
    const host = this.#partHost;
    if (this.#typingPart !== null) {
      if (report !== undefined && host !== null) this.#typingPart.report(report, host);
      return;
    }
    this.#typing ??= inTime(loadTyping()).then(
      (part) => {
        this.#machine.install(part.machine);
        this.#typingPart = part;
        return true;
      },
      (error: unknown) => {
        this.notDownloaded(error);
        return false;
      },
    );
    if (report !== undefined && host !== null) void this.#typing.then(() => this.#typingPart?.report(report, host));
  }

  /** Feeds the machine and runs its effects. */
  #send(event: CheckoutEvent): void {
    if (this.#destroyed) return;
    const before = this.#machine.getState();
    const effects = this.#machine.send(event);
    for (const effect of effects) this.#run(effect);
    // The frames learn the new state after the effects: a form being emptied is cleared before the CVV hears that no
    // brand is known (the CVV frame would report its old digits first, and the integrator hear of them once more).
    if (this.#machine.getState() !== before) this.#syncFrames();
  }

  #run(effect: CheckoutEffect): void {
    const t = this.#options.translate;
    switch (effect.type) {
      case 'loadConfiguration':
        this.#loadConfiguration();
        return;
      case 'scheduleRetry':
        this.#later(effect.afterMs, () => this.#send({ type: 'RETRY' }));
        return;
      case 'announceReady':
        if (this.#machine.getState().view !== 'card') this.#collectDeviceData();
        // The form is usable: the payment's part comes now, well before the shopper can have typed a card and paid.
        if (this.#partHost !== null) this.#preparePayment(this.#partHost).catch(() => undefined);
        this.#emitter.ready(this.instance);
        return;
      case 'reportLoadError':
        this.#emitter.error(new CheckoutError(effect.error.code, t(effect.error.messageKey)));
        return;
      case 'clearFields':
        this.#fields?.clear();
        return;
      case 'tell':
        // `Tell` pairs each event with its payload; TypeScript does not follow the pair through the union's members.
        this.#emitter.emit(effect.event, effect.payload as never);
        return;
      case 'focusView':
        this.#requestFocus(effect.view);
        return;
      case 'focusAlert':
        this.#requestFocus('alert');
        return;
      default: {
        // A part's work: the payment's (the frames' settling, the card's tokenization, the focus on a field it found
        // wrong, a request's outcome), the typing part's (a field's card:* events, an empty field's blur settling), 3-D
        // Secure's, a deletion. The payment's first: a submit's caller waits for the outcome of the work it started.
        // Typed as such: an effect of the core's own falling here does not compile.
        const work: PartEffect = effect;
        this.#payment?.run(work);
        if (this.#partHost !== null) for (const part of [this.#typingPart, ...this.#parts]) part?.run?.(work, this.#partHost);
      }
    }
  }

  /** Pushes what the frames must know (label, required-ness, current message, CVV length); unchanged values are not resent. */
  #syncFrames(): void {
    const fields = this.#fields;
    if (fields === null) return;
    const state = this.#machine.getState();
    const t = this.#options.translate;
    for (const field of state.visibleFields) {
      const error = state.fields[field].error;
      fields.configure(field, {
        label: fieldLabel(field, state.cards, t),
        placeholder: fieldPlaceholder(field, state.cards, t),
        required: isFieldRequired(field, state.settings),
        invalid: error !== null,
        ...(error !== null ? { errorMessage: t(error) } : {}),
      });
    }
    if (state.visibleFields.includes('cvv')) fields.setCvvSize(cvvSize(state.cards));
  }

  #later(ms: number, task: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      task();
    }, ms);
    this.#timers.add(timer);
    return timer;
  }

  #clearTimer(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.#timers.delete(timer);
  }
}
