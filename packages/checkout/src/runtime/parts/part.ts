// What a part of the checkout loaded on demand brings: its guards and actions for the view machine and, for the parts
// that talk to the provider, the effects it runs. The runtime imports a part only when the checkout can need it.
import type { ComponentType } from 'react';
import type {
  CheckoutEffect,
  CheckoutEvent,
  CheckoutState,
  GatewayConfiguration,
  SomeMachinePart,
  ViewId,
} from '../../machine/checkout.types.ts';
import type { HostedFields } from '../../fields/hosted-fields.ts';
import type { ProviderClient } from '../../provider/provider.ts';
import type { PaymentOptionId } from '../../machine/payment-options.ts';
import type { RuntimeOptions } from '../checkout-runtime.ts';
import type { CheckoutCallbacks, CheckoutEmitter } from '../events.ts';

/** The machine's effects the parts run, not the runtime: the runtime hands them on (every other one is its own). */
export type PartEffect = Extract<
  CheckoutEffect,
  {
    readonly type:
      | 'cardFieldEvent'
      | 'scheduleBlurSettle'
      | 'settleFields'
      | 'tokenize'
      | 'focusField'
      | 'deleteMethod'
      | 'verifyThreeDSecure'
      | 'abortThreeDSecure'
      | 'resolveRequest'
      | 'rejectRequest';
  }
>;

/** The runtime, as its parts see it. */
export interface PartHost {
  readonly provider: ProviderClient;
  getState(): CheckoutState;
  send(event: CheckoutEvent): void;
  callbacks(): CheckoutCallbacks;
  /** Tells the integrator (its callbacks and listeners). */
  readonly emit: CheckoutEmitter['emit'];
  /** The card fields' frames mounted now (null: none). */
  fields(): HostedFields | null;
  /** The device data collected for this checkout (null: none), its collection started if it had not been. */
  deviceData(): Promise<string | null>;
  /** The runtime's options: its translator, the wallets' merchant options and loaders, how long an option may load. */
  readonly options: RuntimeOptions;
  /** Runs a task after `ms`; the checkout's teardown clears its timer. */
  later(ms: number, task: () => void): void;
  /** The wallets' views, each once its wallet has loaded (the sheet shows them). */
  readonly walletViews: Map<ViewId, ComponentType>;
  /** The amount the current requestPaymentMethod() asked 3-D Secure to authenticate (null: the option's). */
  requestedAmount: string | null;
  /** The running 3-D Secure's abort: the challenge's Cancel and teardown abort it. */
  threeDSecureAbort: AbortController | null;
}

export interface RuntimePart {
  readonly machine: SomeMachinePart;
  /** Runs the effects of this part the machine asks for (it ignores the others). */
  readonly run?: (effect: PartEffect, host: PartHost) => void;
  /** Starts what the part sets up once the machine has the configuration and the ways to pay it offers (the wallets). */
  readonly start?: (
    host: PartHost,
    config: GatewayConfiguration,
    options: readonly PaymentOptionId[],
    signal: AbortSignal,
  ) => void;
}
