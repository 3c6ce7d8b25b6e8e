// What the checkout needs from a card payment provider. The sandbox implementation talks to Kassa's embedded
// gateway; a braintree-web implementation (real provider, loaded only when used) will implement the same interface.
import type { CheckoutErrorInfo, FieldName, GatewayConfiguration, PaymentMethodResult } from '../machine/checkout.types.ts';
import type { WalletOptionId } from '../machine/payment-options.ts';
import type { HostedFields, HostedFieldsOptions, TokenizeOutcome } from '../fields/hosted-fields.ts';

export interface ProviderClient {
  /** Loads the gateway configuration; rejects with a ProviderError. */
  getConfiguration(signal: AbortSignal): Promise<GatewayConfiguration>;
  /** Mounts the hosted card fields for a loaded configuration (null: before it, when `mountsEarly`). */
  createHostedFields(config: GatewayConfiguration | null, options: Omit<HostedFieldsOptions, 'assetsUrl'>): HostedFields;
  /**
   * The card fields can be mounted before the configuration has loaded, and a field dropped later (its frame removed):
   * the frames load while the configuration does (issue 10).
   */
  readonly mountsEarly?: boolean;
  /**
   * Collects device data for the provider's fraud tools (its code is imported on demand); resolves with the string
   * the payment carries (`deviceData`), or null when it could not be collected. Never rejects.
   */
  collectDeviceData(config: GatewayConfiguration, signal: AbortSignal): Promise<string | null>;
  /**
   * Whether this browser can pay with a wallet through this provider. Against the sandbox its approval page stands
   * in for the Apple Pay and Google Pay sheets, so it says yes; the real provider asks the browser.
   */
  canPayWith(option: WalletOptionId): boolean;
  /**
   * The provider shows every wallet's own UI itself (its window, its QR code, the browser's payment sheet): the
   * wallet's button then opens nothing and hands it the `provider` surface. Unset: the checkout opens the surface.
   */
  readonly ownWalletUi?: boolean;
  /** Runs a wallet's approval on its surface (code imported on demand); never rejects, failures are outcomes. */
  approveWallet(request: WalletRequest): Promise<WalletOutcome>;
  /** Runs 3-D Secure for a card (its code is imported on demand); never rejects, failures are outcomes. */
  verifyThreeDSecure(request: ThreeDSecureRequest): Promise<ThreeDSecureOutcome>;
  /** Asks the fields to send the card to the gateway; never rejects, failures are outcomes. */
  tokenize(
    fields: HostedFields,
    config: GatewayConfiguration,
    fieldNames: readonly FieldName[],
    vault: boolean,
  ): Promise<TokenizeOutcome>;
  /** The client token's customer's saved methods, each with a fresh single-use nonce (none for a guest's token). */
  listPaymentMethods(config: GatewayConfiguration, signal: AbortSignal): Promise<readonly PaymentMethodResult[]>;
  /** Deletes the saved method a listed nonce stands for; rejects with a ProviderError. */
  deletePaymentMethod(config: GatewayConfiguration, nonce: string): Promise<void>;
}

export interface WalletRequest {
  readonly option: WalletOptionId;
  /** Decimal string, the provider's form ('12.00'); null for PayPal's vault flow, which charges nothing. */
  readonly amount: string | null;
  /**
   * The shopper agrees to later charges: PayPal's vault flow (`options.paypal.flow: 'vault'`, no amount: nothing is
   * paid now), or a wallet saved while paying (its `offerSave`; with the amount), whose approval must be one the
   * gateway can save (a PayPal billing agreement, a Venmo account for more than one payment).
   */
  readonly vault?: boolean;
  readonly config: GatewayConfiguration;
  readonly surface: WalletSurface;
  /** Aborted when the shopper cancels in the checkout (the QR code's Cancel) or the checkout is torn down. */
  readonly signal: AbortSignal;
}

/**
 * Where the shopper approves: the window the checkout opened in the click (one opened later would be blocked; the
 * flow navigates it, or closes it when the provider opens its own), or a QR code the checkout shows for a phone to
 * scan (Venmo on a desktop: `show` draws it, the flow waits for the phone's answer).
 */
export type WalletSurface =
  | { readonly kind: 'window'; readonly window: Window }
  | { readonly kind: 'qrCode'; readonly show: (url: string) => void }
  /** The provider shows its own (ownWalletUi): the flow must begin in the click (a payment sheet needs it). */
  | { readonly kind: 'provider' };

/** `canceled` by the shopper: silent; `failed`: shown in the checkout, `detail` for the developer. */
export type WalletOutcome =
  | { readonly kind: 'approved'; readonly result: PaymentMethodResult }
  | { readonly kind: 'failed'; readonly detail: string }
  | { readonly kind: 'canceled' };

export interface ThreeDSecureRequest {
  readonly card: PaymentMethodResult;
  /** Decimal string, the provider's form ('12.00'). */
  readonly amount: string;
  readonly config: GatewayConfiguration;
  /** The issuer asks for a challenge: show this page (on the gateway's origin) in the checkout's modal frame. */
  readonly showChallenge: (url: string) => void;
  /** Aborted when the shopper cancels the challenge or the checkout is torn down. */
  readonly signal: AbortSignal;
}

/**
 * `result`: the card with its 3-D Secure outcome (a new nonce, liabilityShifted, liabilityShiftPossible,
 * threeDSecureInfo), to be judged by the machine; `failed`: no result (lookup refused, network, the challenge page
 * failed), `detail` for the developer; `canceled`: the shopper cancelled the challenge.
 */
export type ThreeDSecureOutcome =
  | { readonly kind: 'result'; readonly result: PaymentMethodResult }
  | { readonly kind: 'failed'; readonly detail: string }
  | { readonly kind: 'canceled' };

/**
 * Marks a ProviderError of any copy of this module: `@kassa/checkout/braintree` is built on its own and carries its
 * own copy of the class, so `instanceof` alone would take its errors for unexpected ones (isProviderError).
 */
const PROVIDER_ERROR = Symbol.for('kassa.checkout.providerError');

/** A load failure with its stable code and catalogue message. */
export class ProviderError extends Error {
  readonly info: CheckoutErrorInfo;
  readonly [PROVIDER_ERROR] = true;
  constructor(info: CheckoutErrorInfo, detail: string) {
    super(detail);
    this.name = 'ProviderError';
    this.info = info;
  }
}

/** A ProviderError from this bundle or another one (see PROVIDER_ERROR). */
export function isProviderError(error: unknown): error is ProviderError {
  return typeof error === 'object' && error !== null && PROVIDER_ERROR in error;
}

export const CONFIGURATION_FAILED: CheckoutErrorInfo = {
  code: 'configuration_failed',
  messageKey: 'error.configurationFailed',
  retriable: true,
};

/**
 * The provider client could not set itself up: its SDK did not load or refused to start, or the gateway's
 * configuration is not one it can read. Not a network failure (those are ProviderErrors of their own).
 */
export class ProviderConfigurationError extends ProviderError {
  constructor(detail: string) {
    super(CONFIGURATION_FAILED, detail);
    this.name = 'ProviderConfigurationError';
  }
}
