// Test support only: shared fixtures for the checkout's tests. Not exported from src/index.ts, so the library
// build leaves it out; its name does not match the test include pattern (src/**/*.test.ts[x]).
import type {
  CardCandidate,
  CheckoutSettings,
  FieldState,
  GatewayConfiguration,
  PaymentMethodResult,
} from '../machine/checkout.types.ts';
import { PAYMENT_OPTIONS } from '../machine/payment-options.ts';

/** What a test changes in the gateway configuration; `supportedCardTypes` stands for `creditCards.supportedCardTypes`. */
export interface GatewayConfigurationOverrides extends Partial<Omit<GatewayConfiguration, 'creditCards'>> {
  readonly supportedCardTypes?: readonly string[];
}

/** A sandbox gateway configuration for merchant m1 on 127.0.0.1:8090, without 3-D Secure or wallets. */
export function gatewayConfiguration({
  supportedCardTypes = ['Visa', 'MasterCard', 'American Express'],
  ...overrides
}: GatewayConfigurationOverrides = {}): GatewayConfiguration {
  return {
    clientApiUrl: 'http://127.0.0.1:8090/merchants/m1/client_api',
    assetsUrl: 'http://127.0.0.1:8090',
    challenges: ['cvv', 'postal_code'],
    threeDSecureEnabled: false,
    paypalEnabled: false,
    applePayWeb: false,
    androidPay: false,
    payWithVenmo: false,
    ...overrides,
    creditCards: { supportedCardTypes },
  };
}

/** A tokenized Visa ending in 1111, as requestPaymentMethod() resolves with it. */
export const paymentMethodResult: PaymentMethodResult = {
  nonce: 'tokencc_1',
  type: 'CreditCard',
  details: {
    bin: '411111',
    cardType: 'Visa',
    lastFour: '1111',
    lastTwo: '11',
    expirationMonth: '12',
    expirationYear: '2030',
    cardholderName: null,
  },
  description: 'ending in 11',
  binData: undefined,
  vaulted: false,
  hasSubscription: false,
  liabilityShifted: undefined,
  liabilityShiftPossible: undefined,
  threeDSecureInfo: undefined,
  deviceData: undefined,
};

/** Field states as a hosted field reports them, unfocused. */
export const VALID: FieldState = { isEmpty: false, isValid: true, isPotentiallyValid: true, isFocused: false };
export const INVALID: FieldState = { isEmpty: false, isValid: false, isPotentiallyValid: false, isFocused: false };
export const EMPTY: FieldState = { isEmpty: true, isValid: false, isPotentiallyValid: true, isFocused: false };

/** Card brands as the number field detects them. */
export const visa: CardCandidate = { type: 'visa', niceType: 'Visa', code: { name: 'CVV', size: 3 } };
export const amex: CardCandidate = { type: 'american-express', niceType: 'American Express', code: { name: 'CID', size: 4 } };
export const jcb: CardCandidate = { type: 'jcb', niceType: 'JCB', code: { name: 'CVV', size: 3 } };

/** Checkout settings as settingsFrom() makes them from no options (card only, optional name), with overrides. */
export function checkoutSettings(overrides: Partial<CheckoutSettings> = {}): CheckoutSettings {
  return {
    cardholderName: 'optional',
    postalCode: 'gateway',
    clearFieldsAfterTokenization: false,
    paymentOptionPriority: PAYMENT_OPTIONS,
    merchantEnabled: { card: true, paypal: false, paypalCredit: false, venmo: false, applePay: false, googlePay: false },
    vaultCard: false,
    vaultManager: false,
    preselectVaultedPaymentMethod: true,
    threeDSecure: false,
    ...overrides,
  };
}

/** A saved card as the client API lists it, with overrides. */
export function savedMethod(overrides: Partial<PaymentMethodResult> & { nonce: string }): PaymentMethodResult {
  return { ...paymentMethodResult, vaulted: true, hasSubscription: false, default: false, ...overrides };
}
