// A wallet's payment method in the checkout's result shape, from the sandbox client API's JSON (an approval's result,
// a saved wallet in the saved-methods list). Kept apart so that the saved list (card view's bundle) does not import the
// wallets' flow.
import { NEW_METHOD_DEFAULTS, type PaymentMethodResult, type PaymentMethodType } from '../machine/checkout.types.ts';
import { isRecord } from './json.ts';

const WALLET_TYPES: ReadonlySet<string> = new Set<PaymentMethodType>([
  'PayPalAccount',
  'VenmoAccount',
  'ApplePayCard',
  'AndroidPayCard',
]);
const str = (value: unknown): string => (typeof value === 'string' ? value : '');

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
