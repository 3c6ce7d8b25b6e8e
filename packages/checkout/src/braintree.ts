// @kassa/checkout/braintree: the provider client for the real provider, over braintree-web (an optional peer
// dependency: install it to use this entry). Pass it to <Checkout provider={createBraintreeProvider(clientToken)}>.
export { createBraintreeProvider, type BraintreeProviderOptions } from './provider/braintree/braintree-provider.ts';
export type { BraintreeWeb } from './provider/braintree/modules.ts';
export type { PaymentSheets } from './provider/braintree/payment-sheets.ts';
