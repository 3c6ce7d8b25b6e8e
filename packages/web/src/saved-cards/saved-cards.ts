import type { PaymentMethodResult } from '@kassa/checkout';
import { api } from '../api/client.ts';
import type { SavedPaymentMethod } from '../api/types.ts';

/**
 * The server's saved card that a card listed in the checkout stands for. The gateway's client API lists saved cards
 * by single-use nonce only (never their token, as the provider's does), so the card is found by what both sides show:
 * brand, BIN, last four and expiry, then the default flag. A shopper cannot save one card twice, so one card matches;
 * anything else is null, and nothing is deleted on a guess.
 */
export function serverCardFor(card: PaymentMethodResult, saved: readonly SavedPaymentMethod[]): SavedPaymentMethod | null {
  const { cardType, bin, lastFour, expirationMonth, expirationYear } = card.details;
  let candidates = saved.filter(
    (method) =>
      method.brand === cardType &&
      method.bin === bin &&
      method.lastFour === lastFour &&
      Number(method.expirationMonth) === Number(expirationMonth) &&
      Number(method.expirationYear) === Number(expirationYear),
  );
  if (candidates.length > 1 && card.default !== undefined)
    candidates = candidates.filter((method) => method.default === card.default);
  return candidates.length === 1 ? (candidates[0] ?? null) : null;
}

/**
 * Deletes a card from the checkout's edit mode through the server, which refuses a card that pays a subscription
 * (409 `payment_method_has_subscription`) whatever the browser shows: the gateway's client API would delete it and
 * cancel the subscription. A rejection keeps the card listed in the checkout with its "Unable to delete" message.
 */
export async function deleteCheckoutCard(card: PaymentMethodResult): Promise<void> {
  const { paymentMethods } = await api.paymentMethods();
  const match = serverCardFor(card, paymentMethods);
  if (match === null) throw new Error(`no single saved card matches ${card.details.cardType} ending in ${card.details.lastFour}`);
  await api.deletePaymentMethod(crypto.randomUUID(), match.id);
}
