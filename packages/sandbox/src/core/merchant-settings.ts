import { CARDINAL_SONGBIRD_URL } from './cardinal-jwt.ts';
import { SUPPORTED_CARD_TYPES } from './cards.ts';
import { clientApiUrl } from './client-token.ts';

// The merchant account's settings that the client configuration tells the browser: which checks the gateway asks
// for (`challenges`) and which payment methods besides cards are turned on (gateway.md, "Client token and client
// configuration"). A real merchant sets these in the provider's control panel; here they are start options and
// environment variables, and tests may change them while the sandbox runs.

export const CHALLENGES = ['cvv', 'postal_code'] as const;
export type Challenge = (typeof CHALLENGES)[number];

export const WALLETS = ['paypal', 'apple_pay', 'google_pay', 'venmo'] as const;
export type Wallet = (typeof WALLETS)[number];

export interface MerchantSettings {
  /** What the checkout must collect with a card: CVV and/or postal code (the provider's AVS/CVV rules). */
  challenges: Challenge[];
  threeDSecure: boolean;
  wallets: Wallet[];
}

/** A fresh provider sandbox account asks for both checks and has nothing but cards turned on. */
export const DEFAULT_MERCHANT_SETTINGS: MerchantSettings = {
  challenges: ['cvv', 'postal_code'],
  threeDSecure: false,
  wallets: [],
};

/** Checks settings from outside (options, the test control endpoint): every problem, or the settings merged on `base`. */
export function parseMerchantSettings(
  value: unknown,
  base: MerchantSettings,
): { ok: true; settings: MerchantSettings } | { ok: false; problems: string[] } {
  const problems: string[] = [];
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    return { ok: false, problems: ['settings must be an object'] };
  const input = value as Record<string, unknown>;
  const challenges = listOf(input['challenges'], CHALLENGES, 'challenges', problems);
  const wallets = listOf(input['wallets'], WALLETS, 'wallets', problems);
  const threeDSecure = input['threeDSecure'];
  if (threeDSecure !== undefined && typeof threeDSecure !== 'boolean') problems.push('threeDSecure must be true or false');
  for (const key of Object.keys(input)) {
    if (!['challenges', 'wallets', 'threeDSecure'].includes(key)) problems.push(`unknown setting "${key}"`);
  }
  if (problems.length > 0) return { ok: false, problems };
  return {
    ok: true,
    settings: {
      challenges: challenges ?? [...base.challenges],
      threeDSecure: typeof threeDSecure === 'boolean' ? threeDSecure : base.threeDSecure,
      wallets: wallets ?? [...base.wallets],
    },
  };
}

function listOf<T extends string>(value: unknown, allowed: readonly T[], name: string, problems: string[]): T[] | undefined {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => allowed.includes(item as T))) {
    problems.push(`${name} must be a list of ${allowed.join(', ')}`);
    return undefined;
  }
  return [...new Set(value as T[])];
}

export interface ClientConfigurationContext {
  origin: string;
  merchantId: string;
  currencyIsoCode: string;
  /** Cardinal's JWT for braintree-web's 3-D Secure 2 (cardinal-jwt.ts), made only when 3-D Secure is on. */
  cardinalJwt: () => string;
}

const CARD_NETWORKS = ['visa', 'mastercard', 'amex', 'discover'];
const DISPLAY_NAME = 'Kassa sandbox merchant';

/**
 * GET v1/configuration's body: the provider's shape, the 3-D Secure block and each wallet's present only when it is
 * turned on.
 */
export function clientConfiguration(settings: MerchantSettings, context: ClientConfigurationContext) {
  const { origin, merchantId, currencyIsoCode } = context;
  const on = (wallet: Wallet): boolean => settings.wallets.includes(wallet);
  return {
    environment: 'sandbox' as const,
    merchantId,
    clientApiUrl: clientApiUrl(origin, merchantId),
    assetsUrl: origin,
    challenges: [...settings.challenges],
    creditCards: { supportedCardTypes: [...SUPPORTED_CARD_TYPES] },
    threeDSecureEnabled: settings.threeDSecure,
    ...(settings.threeDSecure
      ? { threeDSecure: { cardinalAuthenticationJWT: context.cardinalJwt(), cardinalSongbirdUrl: CARDINAL_SONGBIRD_URL } }
      : {}),
    paypalEnabled: on('paypal'),
    // The provider's sandbox accounts without a linked PayPal account answer an "offline" PayPal: no network, the
    // approval is simulated. Here the approval page is the sandbox's own (assetsUrl).
    ...(on('paypal')
      ? {
          paypal: {
            displayName: DISPLAY_NAME,
            clientId: null,
            assetsUrl: origin,
            environment: 'offline',
            environmentNoNetwork: true,
            unvettedMerchant: false,
            billingAgreementsEnabled: true,
            merchantAccountId: merchantId,
            currencyIsoCode,
            payeeEmail: null,
          },
        }
      : {}),
    applePayWeb: on('apple_pay')
      ? {
          countryCode: 'US',
          currencyCode: currencyIsoCode,
          merchantIdentifier: `merchant.kassa.sandbox.${merchantId}`,
          supportedNetworks: CARD_NETWORKS,
        }
      : null,
    androidPay: on('google_pay')
      ? {
          enabled: true,
          displayName: DISPLAY_NAME,
          environment: 'sandbox',
          googleAuthorizationFingerprint: null,
          supportedNetworks: CARD_NETWORKS,
        }
      : null,
    payWithVenmo: on('venmo')
      ? { merchantId, accessToken: null, environment: 'sandbox', enrichedCustomerDataEnabled: false }
      : null,
  };
}

export type ClientConfiguration = ReturnType<typeof clientConfiguration>;
