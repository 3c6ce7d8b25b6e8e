import type { CheckoutEventName } from '../machine/checkout.types.ts';

/** Every event name of CheckoutEventMap, at run time (a missing or unknown one does not compile). */
export const EVENT_NAMES = Object.keys({
  paymentMethodRequestable: true,
  noPaymentMethodRequestable: true,
  paymentOptionSelected: true,
  changeActiveView: true,
  'card:focus': true,
  'card:blur': true,
  'card:empty': true,
  'card:notEmpty': true,
  'card:validityChange': true,
  'card:cardTypeChange': true,
  'card:binAvailable': true,
  'card:inputSubmitRequest': true,
  'threeDSecure:customer-canceled': true,
  'threeDSecure:authentication-modal-render': true,
  'threeDSecure:authentication-modal-close': true,
} satisfies Record<CheckoutEventName, true>) as CheckoutEventName[];
