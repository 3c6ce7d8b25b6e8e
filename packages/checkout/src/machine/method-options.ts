// Which way to pay each kind of saved method is: the saved list and an integrator's own list (src/marks.tsx) show its
// way to pay's mark beside it.
import type { PaymentMethodType } from './checkout.types.ts';
import type { PaymentOptionId } from './payment-options.ts';

export const METHOD_OPTION: Readonly<Record<PaymentMethodType, PaymentOptionId>> = {
  CreditCard: 'card',
  PayPalAccount: 'paypal',
  VenmoAccount: 'venmo',
  ApplePayCard: 'applePay',
  AndroidPayCard: 'googlePay',
};
