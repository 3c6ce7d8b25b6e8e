// Test support only, not exported: an integrator's React page around <Checkout>, which e2e/support/integrator-page.ts
// bundles and serves in Chromium. It mounts the checkout with the authorization and options the test wrote into the
// page (`#integrator-setup`), records every event of the provider's drop-in API in the order the integrator receives
// them, and every load failure (onError), and hands the instance to the test (`window.integrator`), which calls it as
// an integrator's own Pay button would. The plain-page entry's create() is there too, for what it says to a developer.
import { createRoot } from 'react-dom/client';
import { Checkout } from '../checkout.tsx';
import { create } from '../dropin.tsx';
import type { CheckoutEventName } from '../machine/checkout.types.ts';
import type { CheckoutInstance } from '../runtime/checkout-runtime.ts';
import type { CheckoutOptions } from '../runtime/options.ts';
import '../styles/checkout.css';
import { EVENT_NAMES } from './event-names.ts';

export interface IntegratorSetup {
  readonly authorization: string;
  readonly options?: CheckoutOptions;
}

/** What the test reads in the page. */
export interface IntegratorRecord {
  /** Every event, in order, with its payload as the handler received it. */
  readonly events: Array<{ readonly name: CheckoutEventName; readonly payload: unknown }>;
  readonly errors: Array<{ readonly code: string; readonly message: string }>;
  instance: CheckoutInstance | null;
  /** `@kassa/checkout/dropin`'s create(), as a page without React calls it. */
  readonly create: typeof create;
}

const setup = JSON.parse(document.getElementById('integrator-setup')?.textContent ?? '{}') as IntegratorSetup;
const record: IntegratorRecord = { events: [], errors: [], instance: null, create };
Object.assign(window, { integrator: record });

function listen(instance: CheckoutInstance): void {
  for (const name of EVENT_NAMES) {
    // A copy: the test reads what the handler was given then, not what the object became.
    instance.on(name, (payload: unknown) => record.events.push({ name, payload: structuredClone(payload) }));
  }
  record.instance = instance;
}

const container = document.getElementById('checkout');
if (container === null) throw new Error('the integrator page must contain #checkout');
createRoot(container).render(
  <Checkout
    authorization={setup.authorization}
    options={setup.options}
    onReady={listen}
    onError={(error) => record.errors.push({ code: error.code, message: error.message })}
  />,
);
