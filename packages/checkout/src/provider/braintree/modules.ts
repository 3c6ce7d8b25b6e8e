// The braintree-web modules the real provider uses, as their documentation describes them: only the members Kassa
// calls (so a test can stand in for a module at this boundary without the rest), and the loader that imports each
// module only when it is first needed (a checkout without wallets never downloads paypal, venmo, ...). Every module is
// created with the authorization (braintree-web then shares one client among them).
// braintree-web is an optional peer dependency: an integrator using the real provider installs it.

export interface BraintreeError {
  readonly code?: string;
  readonly type?: string;
  readonly message?: string;
}

export interface Client {
  getConfiguration(): { readonly gatewayConfiguration: Readonly<Record<string, unknown>> };
}

export interface FieldData {
  readonly isEmpty: boolean;
  readonly isValid: boolean;
  readonly isPotentiallyValid: boolean;
  readonly isFocused: boolean;
}

export interface HostedFieldsEvent {
  readonly emittedBy: string;
  readonly fields: Readonly<Record<string, FieldData | undefined>>;
  readonly cards: readonly {
    readonly type: string;
    readonly niceType: string;
    readonly code: { readonly name: string; readonly size: number };
  }[];
}

export interface TokenizePayload {
  readonly nonce: string;
  readonly type?: string;
  readonly description?: string;
  readonly details: Readonly<Record<string, unknown>>;
  readonly binData?: Readonly<Record<string, unknown>>;
}

export interface HostedFieldsInstance {
  on(event: string, handler: (event: HostedFieldsEvent & { readonly bin?: string }) => void): void;
  setAttribute(options: { field: string; attribute: string; value: string | boolean }): Promise<void>;
  removeAttribute(options: { field: string; attribute: string }): Promise<void>;
  setMessage(options: { field: string; message: string }): void;
  focus(field: string): void;
  clear(field: string): void;
  tokenize(options?: { vault?: boolean }): Promise<TokenizePayload>;
  teardown(): Promise<void>;
}

export interface HostedFieldsCreateOptions {
  authorization: string;
  fields: Record<string, { container: HTMLElement; placeholder?: string }>;
  styles: Record<string, Record<string, string>>;
}

export interface ThreeDSecureInstance {
  verifyCard(options: {
    nonce: string;
    bin: string;
    amount: string;
    /** Sends the browser's screen, language, time zone, ... with the lookup (EMV 3-D Secure 2's browser data). */
    collectDeviceData: boolean;
    onLookupComplete: (data: unknown, next: () => void) => void;
  }): Promise<TokenizePayload & { readonly threeDSecureInfo: Readonly<Record<string, unknown>> }>;
  cancelVerifyCard(): Promise<unknown>;
  teardown(): Promise<void>;
}

export interface VaultManagerInstance {
  fetchPaymentMethods(options: {
    defaultFirst: boolean;
  }): Promise<readonly (TokenizePayload & { readonly default?: boolean; readonly hasSubscription?: boolean })[]>;
  deletePaymentMethod(nonce: string): Promise<void>;
}

export interface VenmoInstance {
  isBrowserSupported(): boolean;
  tokenize(): Promise<TokenizePayload>;
}

export interface PayPalInstance {
  tokenize(
    options: { flow: 'checkout'; amount: string; currency: string; offerCredit?: boolean } | { flow: 'vault' },
  ): Promise<TokenizePayload>;
}

/** braintree-web's apple-pay, created with the client so that its payment request is made in the shopper's click. */
export interface ApplePayInstance {
  /** The gateway configuration's country, currency, networks and capabilities, plus the total. */
  createPaymentRequest(request: { total: { label: string; amount: string } }): Readonly<Record<string, unknown>>;
  /** Asks the provider for the merchant session Safari's sheet validates (its onvalidatemerchant). */
  performValidation(options: { validationURL: string; displayName: string }): Promise<unknown>;
  /** The nonce for the token Safari's sheet authorized. */
  tokenize(options: { token: unknown }): Promise<TokenizePayload>;
}

/** braintree-web's google-payment (Google Pay API version 2), created with the client for the same reason. */
export interface GooglePaymentInstance {
  /** The request for Google's sheet: the gateway's networks and tokenization, plus the transaction. */
  createPaymentDataRequest(overrides: {
    transactionInfo: { currencyCode: string; totalPriceStatus: 'FINAL'; totalPrice: string };
  }): Readonly<Record<string, unknown>> & { readonly allowedPaymentMethods?: readonly unknown[] };
  /** The nonce inside the payment data Google's sheet answered (details.isNetworkTokenized says which card). */
  parseResponse(paymentData: unknown): Promise<TokenizePayload>;
}

/** Each module's `create`, as braintree-web exports it. */
export interface BraintreeWeb {
  client(): Promise<{ create(options: { authorization: string }): Promise<Client> }>;
  hostedFields(): Promise<{ create(options: HostedFieldsCreateOptions): Promise<HostedFieldsInstance> }>;
  dataCollector(): Promise<{ create(options: { authorization: string }): Promise<{ readonly deviceData: string }> }>;
  threeDSecure(): Promise<{ create(options: { authorization: string; version: 2 }): Promise<ThreeDSecureInstance> }>;
  vaultManager(): Promise<{ create(options: { authorization: string }): Promise<VaultManagerInstance> }>;
  venmo(): Promise<{
    create(options: {
      authorization: string;
      allowDesktop: boolean;
      paymentMethodUsage: 'single_use' | 'multi_use';
    }): Promise<VenmoInstance>;
  }>;
  paypal(): Promise<{ create(options: { authorization: string }): Promise<PayPalInstance> }>;
  applePay(): Promise<{ create(options: { client: Client }): Promise<ApplePayInstance> }>;
  googlePayment(): Promise<{
    create(options: { client: Client; googlePayVersion: 2; googleMerchantId?: string }): Promise<GooglePaymentInstance>;
  }>;
}

/**
 * A real module taken as the subset above. @types/braintree-web types every member with its overloads and callback
 * forms; Kassa's boundary names only what it calls, in the promise form the documentation gives: this is the one
 * place where the two meet (a wrong member name here fails in the provider's tests, which use the same interfaces).
 * braintree-web's modules are CommonJS, which bundlers hand over differently: Vite and webpack put the module's
 * exports on the namespace and as its default, esbuild only as its default (there `create` was not a function: e2e
 * gateway-faults/three-d-secure.spec.ts; test/pack.test.ts bundles the packed entry with both), so the default is read
 * first. (Node's own loader does not apply: it refuses the bare directory imports below, and the client runs in a
 * browser bundle.)
 */
const asDocumented = async <T>(module: Promise<unknown>): Promise<T> => {
  const namespace = (await module) as { readonly default?: unknown };
  return (namespace.default ?? namespace) as T;
};

/**
 * The real modules, each imported on first use. The provider's unit tests replace this object
 * (braintree-provider.test.ts); e2e gateway-faults/three-d-secure.spec.ts runs the client and 3-D Secure modules
 * against the sandbox (support/braintree-web-page.ts: braintree-web only talks to the provider's own https origins).
 */
export const braintreeWeb: BraintreeWeb = {
  client: () => asDocumented(import('braintree-web/client')),
  hostedFields: () => asDocumented(import('braintree-web/hosted-fields')),
  dataCollector: () => asDocumented(import('braintree-web/data-collector')),
  threeDSecure: () => asDocumented(import('braintree-web/three-d-secure')),
  vaultManager: () => asDocumented(import('braintree-web/vault-manager')),
  venmo: () => asDocumented(import('braintree-web/venmo')),
  paypal: () => asDocumented(import('braintree-web/paypal')),
  applePay: () => asDocumented(import('braintree-web/apple-pay')),
  googlePayment: () => asDocumented(import('braintree-web/google-payment')),
};
