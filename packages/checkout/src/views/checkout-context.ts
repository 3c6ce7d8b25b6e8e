// What every view reads: the machine's state, the runtime to forward shopper gestures to, and the translator.
import { createContext, useContext } from 'react';
import type { Translate } from '../i18n/i18n.ts';
import type { CheckoutState } from '../machine/checkout.types.ts';
import type { CheckoutRuntime } from '../runtime/checkout-runtime.ts';

export interface CheckoutContextValue {
  readonly runtime: CheckoutRuntime;
  readonly state: CheckoutState;
  readonly t: Translate;
}

export const CheckoutContext = createContext<CheckoutContextValue | null>(null);

export function useCheckoutContext(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (value === null) throw new Error('Kassa checkout views must be rendered inside <Checkout>.');
  return value;
}
