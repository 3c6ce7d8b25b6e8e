// The public surface of @kassa/checkout. Everything else is internal and may change.
export { Checkout, type CheckoutProps } from './checkout.tsx';
export type { CardholderNameInput, CardOptions, CheckoutOptions, WalletOptions } from './runtime/options.ts';
export { CheckoutError } from './runtime/checkout-error.ts';
export type { CheckoutInstance, PaymentOption, UpdatableConfiguration } from './runtime/checkout-runtime.ts';
export type { CheckoutCallbacks } from './runtime/events.ts';
export type {
  BinData,
  CardCandidate,
  CardDetails,
  CardFieldEvent,
  CardholderNameOption,
  CheckoutErrorCode,
  CheckoutEventMap,
  CheckoutEventName,
  FieldName,
  FieldState,
  PaymentMethodRequestableEvent,
  PaymentMethodResult,
  PostalCodeOption,
  ViewId,
} from './machine/checkout.types.ts';
export { PAYMENT_OPTIONS, type PaymentOptionId, type WalletOptionId } from './machine/payment-options.ts';
export { createCheckoutMachine, initialState, transition, type CheckoutMachine } from './machine/checkout.machine.ts';
export type { ProviderClient } from './provider/provider.ts';
export type { WalletPlugin, WalletRegistry } from './wallets/registry.ts';
export { SUPPORTED_LOCALES, type Locale, type Translations } from './i18n/i18n.ts';
export type { Catalogue, MessageKey } from './i18n/catalogue.ts';
