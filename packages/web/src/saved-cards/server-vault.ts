import type { PaymentMethodResult, ProviderClient } from '@kassa/checkout';
import { api } from '../api/client.ts';
import type { SavedPaymentMethod } from '../api/types.ts';

/**
 * The checkout's provider with the shopper's saved methods kept by Kassa's server instead of the gateway's client API
 * (issue 9). A client token bound to the shopper's gateway customer would let anyone holding it save (and so verify,
 * i.e. test) cards straight at the gateway, past the bot-check and the card-save rules; the server hands out unbound
 * tokens only, and this provider
 * - lists the shopper's saved methods from `GET /api/payment-methods`, each with a nonce the server makes;
 * - never saves at the gateway: a card typed with "Save card" is tokenized alone and handed over with
 *   `vaultRequested`, as an approved wallet to keep is, and the payment flow saves it through `POST
 *   /api/payment-methods` (its `save_card` bot-check, the card-save rules, the gateway's verification and duplicate
 *   check) before paying with the saved card. The page words any refusal, once (the checkout's sheet shows none);
 *   the checkout keeps the nonce, so Pay again after a lost answer sends the same save, which the server answers once;
 * - leaves everything else (fields, wallets, 3-D Secure) to the provider it wraps.
 * Deleting goes through the server already (the checkout's onDeletePaymentMethod).
 */
export function withServerVault(base: ProviderClient): ProviderClient {
  return {
    ...base,
    async listPaymentMethods() {
      const { paymentMethods } = await api.paymentMethods();
      return Promise.all(
        paymentMethods.map(async (method) =>
          checkoutMethod(method, (await api.savedMethodNonce(crypto.randomUUID(), method.id)).nonce),
        ),
      );
    },
    async tokenize(fields, config, fieldNames, vault) {
      const tokenized = await base.tokenize(fields, config, fieldNames, false);
      if (!vault || !tokenized.ok) return tokenized;
      return { ok: true, result: { ...tokenized.result, vaultRequested: true } };
    },
  };
}

/** As the gateway's client API describes a method: a card by its last digits, a wallet by its account or card. */
function describe(method: SavedPaymentMethod): string {
  switch (method.type) {
    case 'CreditCard':
      return `ending in ${method.lastFour.slice(-2)}`;
    case 'PayPalAccount':
      return method.email ?? '';
    case 'VenmoAccount':
      return `Venmo Account: ${method.username ?? ''}`;
    default:
      return `${method.brand} ${method.lastFour}`;
  }
}

/** A method the server lists, in the checkout's result shape, paying with `nonce`. */
export function checkoutMethod(method: SavedPaymentMethod, nonce: string): PaymentMethodResult {
  const lastTwo = method.lastFour.slice(-2);
  return {
    nonce,
    type: method.type,
    details: {
      bin: method.bin,
      cardType: method.brand,
      lastFour: method.lastFour,
      lastTwo,
      expirationMonth: method.expirationMonth,
      expirationYear: method.expirationYear,
      cardholderName: method.cardholderName,
      ...(method.email !== null ? { email: method.email } : {}),
      ...(method.username !== null ? { username: method.username } : {}),
    },
    description: describe(method),
    binData: undefined,
    vaulted: true,
    default: method.default,
    hasSubscription: method.hasSubscription,
    liabilityShifted: undefined,
    liabilityShiftPossible: undefined,
    threeDSecureInfo: undefined,
    deviceData: undefined,
  };
}
