// The ways to pay and which of them a checkout offers (checkout-behaviour.md "Load" 2): an option is kept only when
// the merchant options AND the gateway configuration enable it, in the merchant's `paymentOptionPriority` order.
// Pure: the browser-side part (is the option implemented here, does this browser support it) is passed in.
import type { GatewayConfiguration } from './checkout.types.ts';

/** Every way to pay the drop-in knows, in the provider's default priority. */
export const PAYMENT_OPTIONS = ['card', 'paypal', 'paypalCredit', 'venmo', 'applePay', 'googlePay'] as const;

export type PaymentOptionId = (typeof PAYMENT_OPTIONS)[number];

/** The options other than the card: each plugs in as one registry entry and one lazily loaded view. */
export type WalletOptionId = Exclude<PaymentOptionId, 'card'>;

export function isPaymentOptionId(value: unknown): value is PaymentOptionId {
  return typeof value === 'string' && (PAYMENT_OPTIONS as readonly string[]).includes(value);
}

/** What the gateway configuration says about each option. */
const gatewayEnables: Readonly<Record<PaymentOptionId, (config: GatewayConfiguration) => boolean>> = {
  card: (config) => config.creditCards.supportedCardTypes.length > 0,
  paypal: (config) => config.paypalEnabled,
  paypalCredit: (config) => config.paypalEnabled,
  venmo: (config) => config.payWithVenmo,
  applePay: (config) => config.applePayWeb,
  googlePay: (config) => config.androidPay,
};

/**
 * The options to offer, in priority order: enabled by the merchant (`merchantEnabled`), by the gateway, and usable
 * in this build and this browser (`usable`, e.g. a wallet whose browser API is missing is left out silently).
 */
export function offeredOptions(
  config: GatewayConfiguration,
  priority: readonly PaymentOptionId[],
  merchantEnabled: Readonly<Record<PaymentOptionId, boolean>>,
  usable: (option: PaymentOptionId) => boolean,
): readonly PaymentOptionId[] {
  return priority.filter((option) => merchantEnabled[option] && gatewayEnables[option](config) && usable(option));
}
