// The public surface of @kassa/checkout. Everything else is internal and may change.
export { Checkout, type CheckoutProps } from './checkout.tsx';
export type { CheckoutOptions } from './runtime/options.ts';
export { CheckoutError } from './runtime/checkout-error.ts';
export type {
  CheckoutCallbacks,
  CheckoutInstance,
  PaymentMethodRequestableEvent,
  PaymentOption,
} from './runtime/checkout-runtime.ts';
export type {
  BinData,
  CardDetails,
  CardholderNameOption,
  CheckoutErrorCode,
  PaymentMethodResult,
} from './machine/checkout.types.ts';
export { createCheckoutMachine, initialState, transition, type CheckoutMachine } from './machine/checkout.machine.ts';
export type { ProviderClient } from './provider/provider.ts';
