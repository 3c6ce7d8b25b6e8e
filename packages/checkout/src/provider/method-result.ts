// A payment method in the checkout's result shape, from the sandbox client API's JSON: a card (a tokenization's
// answer, read by submit.ts), a wallet (an approval's result, read by sandbox-wallets.ts) and the saved methods' list
// of either (the sandbox provider imports this module when a customer's list holds any). None comes before a card can
// be typed, so this is not in the card view's download (issue 10); one module, so a list of cards and wallets is one
// import, not two.
import type { PaymentMethodResult, PaymentMethodType } from '../machine/checkout.types.ts';
import { isRecord } from './json.ts';

/**
 * A payment method just tokenized or approved: not saved, charged by no subscription, not checked by 3-D Secure, no
 * device data yet (later steps fill those in). The sandbox's card frames, braintree-web and the wallets' results all
 * start from these.
 */
export const NEW_METHOD_DEFAULTS = {
  vaulted: false,
  hasSubscription: false,
  liabilityShifted: undefined,
  liabilityShiftPossible: undefined,
  threeDSecureInfo: undefined,
  deviceData: undefined,
} as const satisfies Partial<PaymentMethodResult>;

export function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/** The string members `keys` of `value`, each '' when absent or not a string. */
function strings<K extends string>(value: Record<string, unknown>, keys: readonly K[]): Record<K, string> {
  return Object.fromEntries(keys.map((key) => [key, str(value[key])])) as Record<K, string>;
}

/** The gateway's creditCards[0] object -> the public result shape (spec section 3). */
export function parseTokenizeResult(value: unknown): PaymentMethodResult | null {
  if (!isRecord(value) || typeof value.nonce !== 'string' || value.nonce === '' || !isRecord(value.details)) return null;
  const d = value.details;
  const b = value.binData;
  return {
    nonce: value.nonce,
    type: 'CreditCard',
    details: {
      ...strings(d, ['bin', 'cardType', 'lastFour', 'lastTwo', 'expirationMonth', 'expirationYear']),
      cardholderName: typeof d.cardholderName === 'string' && d.cardholderName !== '' ? d.cardholderName : null,
    },
    description: str(value.description),
    binData: isRecord(b)
      ? strings(b, [
          'commercial',
          'countryOfIssuance',
          'debit',
          'durbinRegulated',
          'healthcare',
          'issuingBank',
          'payroll',
          'prepaid',
          'productId',
        ])
      : undefined,
    ...NEW_METHOD_DEFAULTS,
  };
}

const WALLET_TYPES: ReadonlySet<string> = new Set<PaymentMethodType>([
  'PayPalAccount',
  'VenmoAccount',
  'ApplePayCard',
  'AndroidPayCard',
]);

/** Whether the client API's `type` is a wallet's. */
function isWalletType(type: unknown): boolean {
  return typeof type === 'string' && WALLET_TYPES.has(type);
}

/** A wallet's method in the result shape: the wallet's details, card fields empty where the wallet has none. */
export function walletResult(paymentMethod: unknown): PaymentMethodResult | null {
  if (!isRecord(paymentMethod) || typeof paymentMethod.nonce !== 'string' || !isWalletType(paymentMethod.type)) return null;
  const d = isRecord(paymentMethod.details) ? paymentMethod.details : {};
  const lastFour = str(d.lastFour);
  return {
    nonce: paymentMethod.nonce,
    type: paymentMethod.type as PaymentMethodType,
    details: {
      bin: str(d.bin),
      cardType: str(d.cardType),
      lastFour,
      lastTwo: lastFour.slice(-2),
      expirationMonth: str(d.expirationMonth),
      expirationYear: str(d.expirationYear),
      cardholderName: null,
      ...(typeof d.email === 'string' ? { email: d.email } : {}),
      ...(typeof d.username === 'string' ? { username: d.username } : {}),
      ...(paymentMethod.rawPaymentData !== undefined ? { rawPaymentData: paymentMethod.rawPaymentData } : {}),
    },
    description: str(paymentMethod.description),
    binData: undefined,
    ...NEW_METHOD_DEFAULTS,
  };
}

/**
 * The client API's saved-methods list: tokenized cards and saved wallets (by their `type`, with the account's details)
 * plus `default` and `hasSubscription`; bad entries skipped.
 */
export function savedMethods(list: readonly unknown[]): readonly PaymentMethodResult[] {
  return list.flatMap((entry) => {
    const isWallet = isRecord(entry) && typeof entry.type === 'string' && entry.type !== 'CreditCard';
    const method = isWallet ? walletResult(entry) : parseTokenizeResult(entry);
    if (method === null) return [];
    const flags = entry as { default?: unknown; hasSubscription?: unknown };
    return [{ ...method, vaulted: true, default: flags.default === true, hasSubscription: flags.hasSubscription === true }];
  });
}
