// Test support only: renders the sheet (or one view) to HTML for a machine state reached by events, the way
// <Checkout> renders it, without a runtime (as on the server). Not exported from src/index.ts.
import type { ReactElement } from 'react';
import { renderToString } from 'react-dom/server';
import { createTranslator } from '../i18n/i18n.ts';
import { initialState } from '../machine/checkout.machine.ts';
import type { CheckoutEvent, CheckoutSettings, CheckoutState } from '../machine/checkout.types.ts';
import { CheckoutContext } from '../views/checkout-context.ts';
import { checkoutSettings } from './fixtures.ts';
import { step } from './machine.ts';

export function stateAfter(events: readonly CheckoutEvent[], settings: CheckoutSettings = checkoutSettings()): CheckoutState {
  return events.reduce((state, event) => step(state, event).state, initialState(settings));
}

export function renderWith(state: CheckoutState, element: ReactElement): string {
  return renderToString(
    <CheckoutContext.Provider
      value={{ state, runtime: null, t: createTranslator(), headingId: 'sheet-heading', locale: 'en', direction: 'ltr' }}
    >
      {element}
    </CheckoutContext.Provider>,
  );
}
