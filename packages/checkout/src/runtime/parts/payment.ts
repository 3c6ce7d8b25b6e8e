// The payment, loaded once the checkout is ready (load.ts: loadPayment): the machine's part (a submit and its outcome),
// the work it asks for (the frames' settling before a card is judged, the card's tokenization) and the
// requestPaymentMethod() calls it answers, each with the outcome its submit comes to.
import type { PaymentMethodResult, SomeMachinePart } from '../../machine/checkout.types.ts';
import { paymentPart } from '../../machine/parts/payment.ts';
import { CheckoutError } from '../checkout-error.ts';
import type { RequestPaymentMethodOptions } from '../checkout-runtime.ts';
import type { PartEffect, PartHost } from './part.ts';

/** How long a payment method waits for device data still being collected before it goes without. */
const DEVICE_DATA_WAIT_MS = 3_000;

interface Deferred {
  resolve(result: PaymentMethodResult): void;
  reject(error: CheckoutError): void;
}

/** One checkout's payment: its requests and the effects of the machine's that settle them. */
export interface Payment {
  request(options?: RequestPaymentMethodOptions): Promise<PaymentMethodResult>;
  /** A part's work a submit waits for (the payment's, 3-D Secure's), and a request's outcome. */
  run(effect: PartEffect): void;
  /** The checkout is torn down: a request still waiting for its outcome is refused. */
  teardown(): void;
}

/** What the runtime installs: the machine's part, and each checkout's payment, made on its host. */
export interface PaymentPart {
  readonly machine: SomeMachinePart;
  create(host: PartHost): Payment;
}

function createPayment(host: PartHost): Payment {
  const t = host.options.translate;
  /** The request whose submit the machine is taking now. */
  let caller: Deferred | null = null;
  /** The request waiting for an outcome that comes later: a tokenization, or 3-D Secure's. */
  let waiting: Deferred | null = null;
  /** A card request before this time (ms since the epoch) is refused without calling the gateway. */
  let rateLimitedUntil = 0;

  /** The request an outcome belongs to: the one being submitted, else the one waiting. */
  const settle = (): Deferred | null => {
    const request = caller ?? waiting;
    if (request === waiting) waiting = null;
    return request;
  };

  return {
    request: (options) =>
      new Promise<PaymentMethodResult>((resolve, reject) => {
        const { phase, selected } = host.getState();
        if (phase === 'ready') host.requestedAmount = options?.threeDSecure?.amount ?? null;
        if (phase === 'closed') reject(new CheckoutError('not_ready', t('error.notReady')));
        // The gateway said when to come back (429 Retry-After): until then a request would only be refused again.
        else if (Date.now() < rateLimitedUntil && selected === null)
          reject(new CheckoutError('rate_limited', t('error.rateLimited')));
        else {
          caller = { resolve, reject };
          host.send({ type: 'SUBMIT' });
          caller = null;
        }
      }),
    run: (effect) => {
      switch (effect.type) {
        case 'resolveRequest': {
          const request = settle();
          // Every result carries the device data; a collector that has not answered yet is waited for briefly only.
          const late = new Promise<null>((resolve) => setTimeout(resolve, DEVICE_DATA_WAIT_MS, null));
          void Promise.race([host.deviceData(), late]).then((deviceData) =>
            request?.resolve(deviceData === null ? effect.result : { ...effect.result, deviceData }),
          );
          return;
        }
        case 'focusField':
          // A field the submit found wrong (its machine part's), once React has shown its message.
          host.later(0, () => host.fields()?.focus(effect.field));
          return;
        case 'rejectRequest':
          if (effect.error.retryAfterMs !== undefined) rateLimitedUntil = Date.now() + effect.error.retryAfterMs;
          settle()?.reject(new CheckoutError(effect.error.code, t(effect.error.messageKey)));
          return;
        default:
          // A submit's caller waits for the outcome of the work it started, which comes later.
          waiting = caller ?? waiting;
      }
      // Read only for the two effects that use them: every effect of the other parts (a card field's report each
      // keystroke, with the typing part) comes here too.
      if (effect.type !== 'settleFields' && effect.type !== 'tokenize') return;
      const fields = host.fields();
      const { config, visibleFields } = host.getState();
      if (effect.type === 'settleFields') {
        // Frames that did not answer in time (their card rules, or a submit's module, not downloaded) are not judged by
        // their reports from before: the card cannot be sent, as when a tokenization's module did not download.
        void Promise.resolve(fields?.settle(visibleFields) ?? true).then((heard) =>
          host.send(
            heard
              ? { type: 'FIELDS_SETTLED' }
              : { type: 'TOKENIZE_FAILED', failure: { code: 'not_downloaded', message: 'The card fields did not answer.' } },
          ),
        );
      } else {
        if (fields === null || config === null) {
          host.send({ type: 'TOKENIZE_FAILED', failure: { code: 'gateway', message: 'The card fields are not mounted.' } });
          return;
        }
        void host.provider.tokenize(fields, config, effect.fields, effect.vault).then((outcome) => {
          host.send(
            outcome.ok ? { type: 'TOKENIZED', result: outcome.result } : { type: 'TOKENIZE_FAILED', failure: outcome.error },
          );
        });
      }
    },
    teardown: () => {
      waiting?.reject(new CheckoutError('not_ready', t('error.notReady')));
      waiting = null;
    },
  };
}

export const payment: PaymentPart = { machine: paymentPart, create: createPayment };
