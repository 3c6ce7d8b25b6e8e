// What a part of the checkout loaded on demand brings: its guards and actions for the view machine and, for the parts
// that talk to the provider, the effects it runs. The runtime imports a part only when the checkout can need it.
import type { CheckoutEffect, CheckoutEvent, CheckoutState, SomeMachinePart } from '../../machine/checkout.types.ts';
import type { HostedFields } from '../../fields/hosted-fields.ts';
import type { ProviderClient } from '../../provider/provider.ts';
import type { Translate } from '../../i18n/i18n.ts';
import type { CheckoutCallbacks } from '../events.ts';

/** The runtime, as its parts see it. */
export interface PartHost {
  readonly provider: ProviderClient;
  getState(): CheckoutState;
  send(event: CheckoutEvent): void;
  callbacks(): CheckoutCallbacks;
  /** The card fields' frames mounted now (null: none). */
  fields(): HostedFields | null;
  /** The device data collected for this checkout (null: none), its collection started if it had not been. */
  deviceData(): Promise<string | null>;
  readonly translate: Translate;
  /** The amount the current requestPaymentMethod() asked 3-D Secure to authenticate (null: the option's). */
  requestedAmount: string | null;
  /** The running 3-D Secure's abort: the challenge's Cancel and teardown abort it. */
  threeDSecureAbort: AbortController | null;
}

export interface RuntimePart {
  readonly machine: SomeMachinePart;
  /** Runs the effects of this part the machine asks for (it ignores the others). */
  readonly run?: (effect: CheckoutEffect, host: PartHost) => void;
}
