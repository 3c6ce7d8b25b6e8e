// @kassa/checkout/marks: the mark the checkout draws beside each way to pay (the option list's, the saved list's), for
// an integrator's own list of saved methods (an account page) to show them alike. An entry of its own, so the card
// view's bundle does not carry it.
import type { ReactElement } from 'react';
import type { PaymentMethodType } from './machine/checkout.types.ts';
import { METHOD_OPTION } from './machine/method-options.ts';
import { OptionIcon } from './views/options/option-icons.tsx';

export type { PaymentMethodType } from './machine/checkout.types.ts';

/** The mark of a saved method's way to pay (decorative: `aria-hidden`; name the method in text beside it). */
export function PaymentMethodMark({ type }: { readonly type: PaymentMethodType }): ReactElement {
  return <OptionIcon option={METHOD_OPTION[type]} />;
}
