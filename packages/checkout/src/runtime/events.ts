// The checkout's events, under the provider's drop-in names so an integrator can switch: `instance.on(name, handler)`
// as with the drop-in, and the React props (onPaymentMethodRequestable, ...) for the same events.
import type {
  CheckoutEventMap,
  CheckoutEventName,
  PaymentMethodRequestableEvent,
  PaymentMethodResult,
} from '../machine/checkout.types.ts';
import type { CheckoutError } from './checkout-error.ts';
import type { CheckoutInstance } from './checkout-runtime.ts';

/** The React props for the events (each also available through `instance.on`). */
export interface CheckoutCallbacks {
  readonly onReady?: ((instance: CheckoutInstance) => void) | undefined;
  readonly onError?: ((error: CheckoutError) => void) | undefined;
  readonly onPaymentMethodRequestable?: ((event: PaymentMethodRequestableEvent) => void) | undefined;
  readonly onNoPaymentMethodRequestable?: (() => void) | undefined;
  readonly onPaymentOptionSelected?: ((event: CheckoutEventMap['paymentOptionSelected']) => void) | undefined;
  readonly onChangeActiveView?: ((event: CheckoutEventMap['changeActiveView']) => void) | undefined;
  readonly onInputSubmitRequest?: ((event: CheckoutEventMap['card:inputSubmitRequest']) => void) | undefined;
  readonly onBinAvailable?: ((event: CheckoutEventMap['card:binAvailable']) => void) | undefined;
  /**
   * Edit mode's Delete calls this instead of the gateway's client API: delete the card through your server (which can
   * refuse, e.g. while a subscription charges it) and resolve; reject to keep it listed with "Unable to delete payment
   * method, try again.". Without it the checkout deletes through the client API, as the provider's drop-in does.
   */
  readonly onDeletePaymentMethod?: ((method: PaymentMethodResult) => Promise<void>) | undefined;
}

type Handler<E extends CheckoutEventName> = (payload: CheckoutEventMap[E]) => void;

/**
 * The prop that receives each event, where there is one; Enter's and the BIN's (`onInputSubmitRequest`,
 * `onBinAvailable`) are given to `emit` by the typing part that tells them (issue 10: not in the card view's download).
 */
const PROPS: { readonly [E in CheckoutEventName]?: (callbacks: CheckoutCallbacks) => Handler<E> | undefined } = {
  paymentMethodRequestable: (c) => c.onPaymentMethodRequestable,
  // Called with no argument, as its type says (a listener given to on() gets the payload, undefined).
  noPaymentMethodRequestable: (c) => () => c.onNoPaymentMethodRequestable?.(),
  paymentOptionSelected: (c) => c.onPaymentOptionSelected,
  changeActiveView: (c) => c.onChangeActiveView,
};

/** Runs an integrator's handler; its exception is reported but never breaks the checkout's own bookkeeping. */
function notify(callback: () => void): void {
  try {
    callback();
  } catch (error) {
    console.error('[kassa/checkout] an event handler threw', error);
  }
}

export class CheckoutEmitter {
  readonly #handlers = new Map<CheckoutEventName, Set<(payload: never) => void>>();

  /** Read on every event so the latest React props are used. */
  readonly #callbacks: () => CheckoutCallbacks;

  constructor(callbacks: () => CheckoutCallbacks) {
    this.#callbacks = callbacks;
  }

  on<E extends CheckoutEventName>(event: E, handler: Handler<E>): void {
    this.#handlers.set(event, (this.#handlers.get(event) ?? new Set()).add(handler));
  }

  off<E extends CheckoutEventName>(event: E, handler: Handler<E>): void {
    this.#handlers.get(event)?.delete(handler);
  }

  /** Tells the event's prop (`prop`: the one PROPS names unless given), then the listeners given to `on`. */
  emit<E extends CheckoutEventName>(
    event: E,
    payload: CheckoutEventMap[E],
    prop: Handler<E> | undefined = PROPS[event]?.(this.#callbacks()),
  ): void {
    if (prop !== undefined) notify(() => prop(payload));
    for (const handler of [...(this.#handlers.get(event) ?? [])]) notify(() => (handler as Handler<E>)(payload));
  }

  ready(instance: CheckoutInstance): void {
    notify(() => this.#callbacks().onReady?.(instance));
  }

  error(error: CheckoutError): void {
    notify(() => this.#callbacks().onError?.(error));
  }

  clear(): void {
    this.#handlers.clear();
  }
}
