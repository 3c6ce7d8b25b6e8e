// Runs the view machine in a browser: feeds it frame messages and provider answers, performs the effects it asks
// for, and exposes the instance handed to onReady. One runtime per mounted <Checkout>; destroy() undoes everything.
import type { HostedFields } from '../fields/hosted-fields.ts';
import type { FrameMessage } from '../fields/protocol.ts';
import { fieldLabel, fieldPlaceholder } from '../i18n/field-text.ts';
import type { Translate } from '../i18n/i18n.ts';
import { createCheckoutMachine, type CheckoutMachine } from '../machine/checkout.machine.ts';
import type {
  CheckoutEffect,
  CheckoutErrorInfo,
  CheckoutEvent,
  CheckoutSettings,
  CheckoutState,
  FieldName,
  GatewayConfiguration,
  PaymentMethodResult,
} from '../machine/checkout.types.ts';
import { cvvSize, isFieldRequired } from '../machine/field-rules.ts';
import { parseClientToken } from '../provider/client-token.ts';
import { ProviderError, type ProviderClient } from '../provider/provider.ts';
import { createSandboxProvider } from '../provider/sandbox-provider.ts';
import { CheckoutError } from './checkout-error.ts';

export type PaymentOption = 'card';

export interface CheckoutInstance {
  /** Validates and tokenizes the card (or returns the card already tokenized); rejects with a CheckoutError. */
  requestPaymentMethod(): Promise<PaymentMethodResult>;
  isPaymentMethodRequestable(): boolean;
  /** Forgets the tokenized card and empties the form, e.g. after the payment was declined. */
  clearSelectedPaymentMethod(): void;
  getAvailablePaymentOptions(): readonly PaymentOption[];
}

export interface PaymentMethodRequestableEvent {
  readonly type: 'CreditCard';
  readonly paymentMethodIsSelected: boolean;
}

export interface CheckoutCallbacks {
  readonly onReady?: ((instance: CheckoutInstance) => void) | undefined;
  readonly onPaymentMethodRequestable?: ((event: PaymentMethodRequestableEvent) => void) | undefined;
  readonly onNoPaymentMethodRequestable?: (() => void) | undefined;
  readonly onError?: ((error: CheckoutError) => void) | undefined;
  /** Enter was pressed in a card field: the shopper wants to pay, as Enter in a form submits it. */
  readonly onInputSubmitRequest?: ((event: { field: FieldName }) => void) | undefined;
  /** The first six digits of the card number are known (for BIN-based rules such as surcharges). */
  readonly onBinAvailable?: ((event: { bin: string }) => void) | undefined;
}

export interface RuntimeOptions {
  readonly authorization: string;
  readonly settings: CheckoutSettings;
  readonly translate: Translate;
  /** Read on every call so the latest React props are used. */
  readonly callbacks: () => CheckoutCallbacks;
  /** Overrides the provider chosen from the token (tests, future providers). */
  readonly provider?: ProviderClient;
  readonly frameLoadTimeoutMs?: number;
  readonly blurSettleMs?: number;
}

export interface FieldContainer {
  readonly field: FieldName;
  readonly container: HTMLElement;
  readonly describedBy: string;
}

interface Deferred {
  resolve(result: PaymentMethodResult): void;
  reject(error: CheckoutError): void;
}

/** Runs an integrator's callback; its exception is reported but never breaks the checkout's own bookkeeping. */
function notify(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    console.error('[kassa/checkout] an event handler threw', error);
  }
}

export class CheckoutRuntime {
  readonly instance: CheckoutInstance;
  private readonly machine: CheckoutMachine;
  private readonly options: RuntimeOptions;
  private provider: ProviderClient | null = null;
  private fields: HostedFields | null = null;
  private readonly readyFrames = new Set<FieldName>();
  private loadAbort: AbortController | null = null;
  private tokenizing: Deferred | null = null;
  private readonly timers = new Set<ReturnType<typeof setTimeout>>();
  private destroyed = false;

  constructor(options: RuntimeOptions) {
    this.options = options;
    this.machine = createCheckoutMachine(options.settings);
    this.machine.subscribe(() => this.syncFrames());
    this.instance = {
      requestPaymentMethod: () => this.requestPaymentMethod(),
      isPaymentMethodRequestable: () => this.machine.getState().requestability.requestable,
      clearSelectedPaymentMethod: () => this.send({ type: 'CLEAR_SELECTION' }),
      getAvailablePaymentOptions: () => (this.machine.getState().config === null ? [] : ['card']),
    };
  }

  readonly subscribe = (listener: () => void): (() => void) => this.machine.subscribe(listener);
  readonly getState = (): CheckoutState => this.machine.getState();

  /**
   * Starts on the next microtask: StrictMode mounts, unmounts and re-mounts synchronously, so the first runtime is
   * already destroyed by then and neither fetches nor reports anything twice.
   */
  start(): void {
    queueMicrotask(() => {
      if (!this.destroyed) this.begin();
    });
  }

  private begin(): void {
    if (this.options.provider !== undefined) {
      this.provider = this.options.provider;
    } else {
      try {
        this.provider = createSandboxProvider(parseClientToken(this.options.authorization));
      } catch (error) {
        this.fail(error);
        return;
      }
    }
    this.loadConfiguration();
  }

  retry(): void {
    this.send({ type: 'RETRY' });
  }

  focusField(field: FieldName): void {
    this.fields?.focus(field);
  }

  /** Mounts the frames into the card view's containers; returns the clean-up for the view's effect. */
  mountFields(containers: readonly FieldContainer[]): () => void {
    const config = this.machine.getState().config;
    if (this.destroyed || this.provider === null || config === null) return () => {};
    const state = this.machine.getState();
    const fields = this.provider.createHostedFields(config, {
      mounts: containers.map((c) => ({ ...c, title: fieldLabel(c.field, state.cards, this.options.translate) })),
      onMessage: (field, message) => this.onFrameMessage(field, message, containers.length),
    });
    this.fields = fields;
    this.readyFrames.clear();
    this.syncFrames();
    const timer = this.later(this.options.frameLoadTimeoutMs ?? 20_000, () => {
      if (this.machine.getState().phase !== 'mounting') return;
      this.send({ type: 'FRAMES_FAILED', error: { code: 'fields_failed', messageKey: 'error.fieldsFailed', retriable: true } });
    });
    return () => {
      this.clearTimer(timer);
      fields.teardown();
      if (this.fields === fields) this.fields = null;
    };
  }

  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.loadAbort?.abort();
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    this.fields?.teardown();
    this.fields = null;
    this.tokenizing?.reject(new CheckoutError('not_ready', this.options.translate('error.notReady')));
    this.tokenizing = null;
  }

  private requestPaymentMethod(): Promise<PaymentMethodResult> {
    return new Promise<PaymentMethodResult>((resolve, reject) => {
      if (this.destroyed) {
        reject(new CheckoutError('not_ready', this.options.translate('error.notReady')));
        return;
      }
      this.send({ type: 'SUBMIT' }, { resolve, reject });
    });
  }

  private loadConfiguration(): void {
    const provider = this.provider;
    if (provider === null) return;
    this.loadAbort?.abort();
    const abort = new AbortController();
    this.loadAbort = abort;
    provider.getConfiguration(abort.signal).then(
      (config: GatewayConfiguration) => {
        if (!abort.signal.aborted) this.send({ type: 'CONFIG_LOADED', config });
      },
      (error: unknown) => {
        if (!abort.signal.aborted) this.fail(error);
      },
    );
  }

  private fail(error: unknown): void {
    const info: CheckoutErrorInfo =
      error instanceof ProviderError ? error.info : { code: 'configuration_failed', messageKey: 'error.network', retriable: true };
    if (!(error instanceof ProviderError)) console.error('[kassa/checkout] unexpected load failure', error);
    else if (!info.retriable) console.error(`[kassa/checkout] ${error.message}`);
    this.send({ type: 'CONFIG_FAILED', error: info });
  }

  private onFrameMessage(field: FieldName, message: FrameMessage, frameCount: number): void {
    switch (message.type) {
      case 'ready':
        this.readyFrames.add(field);
        if (this.readyFrames.size === frameCount) this.send({ type: 'FRAMES_READY' });
        return;
      case 'state':
        this.send({ type: 'FIELD_STATE', field: message.field, event: message.event, state: message.state });
        return;
      case 'cardTypeChange':
        this.send({ type: 'CARD_TYPE_CHANGED', cards: message.cards });
        return;
      case 'inputSubmitRequest':
        this.options.callbacks().onInputSubmitRequest?.({ field: message.field });
        return;
      case 'binAvailable':
        this.options.callbacks().onBinAvailable?.({ bin: message.bin });
        return;
      default:
        // Tokenization answers settle in the fields module.
        return;
    }
  }

  /** Feeds the machine and runs its effects; `request` is the caller of requestPaymentMethod(), if any. */
  private send(event: CheckoutEvent, request?: Deferred): void {
    if (this.destroyed) return;
    const effects = this.machine.send(event);
    for (const effect of effects) this.run(effect, request);
  }

  private run(effect: CheckoutEffect, request: Deferred | undefined): void {
    const t = this.options.translate;
    const callbacks = this.options.callbacks();
    switch (effect.type) {
      case 'loadConfiguration':
        this.loadConfiguration();
        return;
      case 'announceReady':
        notify(() => callbacks.onReady?.(this.instance));
        return;
      case 'reportLoadError':
        notify(() => callbacks.onError?.(new CheckoutError(effect.error.code, t(effect.error.messageKey))));
        return;
      case 'scheduleBlurSettle':
        this.later(this.options.blurSettleMs ?? 300, () => this.send({ type: 'BLUR_SETTLED', field: effect.field }));
        return;
      case 'tokenize':
        this.tokenizing = request ?? null;
        this.tokenize(effect.fields);
        return;
      case 'clearFields':
        this.fields?.clear();
        return;
      case 'resolveRequest':
        this.settle(request)?.resolve(effect.result);
        return;
      case 'rejectRequest':
        this.settle(request)?.reject(new CheckoutError(effect.error.code, t(effect.error.messageKey)));
        return;
      case 'paymentMethodRequestable':
        notify(() =>
          callbacks.onPaymentMethodRequestable?.({ type: 'CreditCard', paymentMethodIsSelected: effect.paymentMethodIsSelected }),
        );
        return;
      case 'noPaymentMethodRequestable':
        notify(() => callbacks.onNoPaymentMethodRequestable?.());
        return;
    }
  }

  /** The promise an outcome belongs to: the current caller, or the one waiting for the tokenization. */
  private settle(request: Deferred | undefined): Deferred | null {
    if (request !== undefined) return request;
    const waiting = this.tokenizing;
    this.tokenizing = null;
    return waiting;
  }

  private tokenize(fieldNames: readonly FieldName[]): void {
    const { provider, fields } = this;
    const config = this.machine.getState().config;
    if (provider === null || fields === null || config === null) {
      this.send({ type: 'TOKENIZE_FAILED', failure: { code: 'network', message: 'The card fields are not mounted.' } });
      return;
    }
    void provider.tokenize(fields, config, fieldNames).then((outcome) => {
      this.send(outcome.ok ? { type: 'TOKENIZED', result: outcome.result } : { type: 'TOKENIZE_FAILED', failure: outcome.error });
    });
  }

  /** Pushes what the frames must know (label, required-ness, current message, CVV length); unchanged values are not resent. */
  private syncFrames(): void {
    const fields = this.fields;
    if (fields === null) return;
    const state = this.machine.getState();
    const t = this.options.translate;
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

  private later(ms: number, task: () => void): ReturnType<typeof setTimeout> {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      task();
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  private clearTimer(timer: ReturnType<typeof setTimeout>): void {
    clearTimeout(timer);
    this.timers.delete(timer);
  }
}
