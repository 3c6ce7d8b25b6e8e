// A card in the checkout's result shape, from the sandbox client API's JSON: a tokenization's answer (submit.ts) and a
// saved card in the saved-methods list (sandbox-provider.ts imports it when the list holds one). Neither comes before
// a card can be typed, so it is not in the card view's download (issue 10).
import { NEW_METHOD_DEFAULTS, type PaymentMethodResult } from '../machine/checkout.types.ts';
import { isRecord } from '../provider/json.ts';
import { str } from './protocol.ts';

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
