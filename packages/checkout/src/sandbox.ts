// @kassa/checkout/sandbox: the checkout's default provider client (Kassa's sandbox gateway, from a client token), for
// an integrator that wraps it, e.g. to list and save cards through its own server, or asks for its configuration ahead. Built on its own (like
// @kassa/checkout/braintree), so that exporting it costs the card view nothing.
export { askConfigurationAhead, providerAsked } from './provider/configuration-ahead.ts';
export { createSandboxProvider } from './provider/sandbox-provider.ts';
