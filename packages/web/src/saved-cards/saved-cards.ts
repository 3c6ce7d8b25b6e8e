import type { PaymentMethodResult } from '@kassa/checkout';
import { ApiError, api } from '../api/client.ts';
import type { SavedPaymentMethod } from '../api/types.ts';

/** Whether a method the checkout lists and one the server lists show the same card or account. */
function sameMethod(listed: PaymentMethodResult, method: SavedPaymentMethod): boolean {
  const { cardType, bin, lastFour, expirationMonth, expirationYear, email, username } = listed.details;
  if (listed.type !== method.type) return false;
  switch (listed.type) {
    case 'PayPalAccount':
      return method.email === email;
    case 'VenmoAccount':
      return method.username === username;
    case 'ApplePayCard':
    case 'AndroidPayCard':
      return method.brand === cardType && method.lastFour === lastFour;
    case 'CreditCard':
      return (
        method.brand === cardType &&
        method.bin === bin &&
        method.lastFour === lastFour &&
        Number(method.expirationMonth) === Number(expirationMonth) &&
        Number(method.expirationYear) === Number(expirationYear)
      );
  }
}

/**
 * The server's saved method that one listed in the checkout stands for. The gateway's client API lists saved methods
 * by single-use nonce only (never their token, as the provider's does), so the method is found by what both sides
 * show: a card's brand, BIN, last four and expiry, a PayPal account's email, a Venmo username, a phone wallet's card,
 * then the default flag. A shopper cannot save one card twice, so one card matches; anything else is null, and
 * nothing is deleted on a guess.
 */
export function serverMethodFor(listed: PaymentMethodResult, saved: readonly SavedPaymentMethod[]): SavedPaymentMethod | null {
  let candidates = saved.filter((method) => sameMethod(listed, method));
  if (candidates.length > 1 && listed.default !== undefined)
    candidates = candidates.filter((method) => method.default === listed.default);
  return candidates.length === 1 ? (candidates[0] ?? null) : null;
}

/**
 * Deletes a card or wallet from the checkout's edit mode through the server, which refuses one that pays a subscription
 * (409 `payment_method_has_subscription`) whatever the browser shows: the gateway's client API would delete it and
 * cancel the subscription. A rejection keeps the card listed in the checkout with its "Unable to delete" message.
 */
export async function deleteCheckoutCard(card: PaymentMethodResult): Promise<void> {
  const { paymentMethods } = await api.paymentMethods();
  const match = serverMethodFor(card, paymentMethods);
  if (match === null) throw new Error(`no single saved method matches the ${card.type} ${card.description}`);
  await api.deletePaymentMethod(crypto.randomUUID(), match.id);
}

/**
 * A card ("Save card") or a wallet the shopper asked to save while paying: saved through the server (`POST
 * /api/payment-methods`: its `save_card` bot-check, the card-save rules, a card's verification and duplicate check),
 * or, a wallet, found saved already (409 `wallet_already_saved` names the one saved before: the shopper's wish is
 * met, nothing new is kept); answers a nonce that pays with the saved card or wallet.
 */
export async function saveToPay(idempotencyKey: string, nonce: string): Promise<string> {
  let saved: SavedPaymentMethod;
  try {
    saved = (await api.addPaymentMethod(idempotencyKey, nonce, false)).paymentMethod;
  } catch (error) {
    const earlier =
      error instanceof ApiError && error.problem.code === 'wallet_already_saved' ? error.problem.paymentMethod : undefined;
    if (earlier === undefined) throw error;
    saved = earlier;
  }
  return (await api.savedMethodNonce(crypto.randomUUID(), saved.id)).nonce;
}
