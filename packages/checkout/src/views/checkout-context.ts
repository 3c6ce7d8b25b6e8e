// What every view reads: the machine's state, the runtime to forward shopper gestures to (null while rendering on
// the server or before the runtime exists), and the translator.
import { createContext, useContext, useEffect } from 'react';
import type { Direction, Locale, Translate } from '../i18n/i18n.ts';
import type { CheckoutState } from '../machine/checkout.types.ts';
import type { CheckoutRuntime, FocusTarget } from '../runtime/checkout-runtime.ts';

export interface CheckoutContextValue {
  readonly runtime: CheckoutRuntime | null;
  readonly state: CheckoutState;
  readonly t: Translate;
  /** Id of the sheet's heading (the option list is labelled by it). */
  readonly headingId: string;
  /** The locale the messages are in, and its writing direction (the sheet's `lang` and `dir`). */
  readonly locale: Locale;
  readonly direction: Direction;
}

export const CheckoutContext = createContext<CheckoutContextValue | null>(null);

export function useCheckoutContext(): CheckoutContextValue {
  const value = useContext(CheckoutContext);
  if (value === null) throw new Error('Kassa checkout views must be rendered inside <Checkout>.');
  return value;
}

/**
 * Tells the runtime how to focus this view's first control when the shopper opens it; null while it has none to take
 * focus (a focus asked for meanwhile waits for one).
 */
export function useFocusTarget(target: FocusTarget, focus: (() => void) | null): void {
  const { runtime } = useCheckoutContext();
  useEffect(() => (focus === null ? undefined : runtime?.registerFocus(target, focus)), [runtime, target, focus]);
}
