import type { PaymentMethodResult, ProviderClient } from '@kassa/checkout';
import { ApiError, api } from '../api/client.ts';
import type { Problem, SavedPaymentMethod } from '../api/types.ts';

/**
 * The checkout's provider with the shopper's saved methods kept by Kassa's server instead of the gateway's client API
 * (issue 9). A client token bound to the shopper's gateway customer would let anyone holding it save (and so verify,
 * i.e. test) cards straight at the gateway, past the bot-check and the card-save rules; the server hands out unbound
 * tokens only, and this provider
 * - lists the shopper's saved methods from `GET /api/payment-methods`, each with a nonce the server makes;
 * - saves a card typed with "Save card" through `POST /api/payment-methods` (its `save_card` bot-check, the card-save
 *   rules, the gateway's verification and duplicate check), then pays with the saved card's nonce;
 * - leaves everything else (fields, wallets, 3-D Secure) to the provider it wraps.
 * Deleting goes through the server already (the checkout's onDeletePaymentMethod).
 */
export function withServerVault(base: ProviderClient, ports: ServerVaultPorts): ProviderClient {
  /**
   * Saves whose answer was lost (no answer, or the server or gateway unavailable), by card: saving that card again
   * resends the same request (its Idempotency-Key and first nonce), which the server answers once. A new request
   * would be refused as a duplicate of the card the lost one saved.
   */
  const unanswered = new Map<string, { key: string; nonce: string }>();
  return {
    ...base,
    async listPaymentMethods() {
      const { paymentMethods } = await api.paymentMethods();
      return Promise.all(
        paymentMethods.map(async (method) => checkoutMethod(method, (await api.savedMethodNonce(newKey(), method.id)).nonce)),
      );
    },
    async tokenize(fields, config, fieldNames, vault) {
      const tokenized = await base.tokenize(fields, config, fieldNames, false);
      if (!vault || !tokenized.ok) return tokenized;
      const card = cardIdentity(tokenized.result.details);
      const save = unanswered.get(card) ?? { key: newKey(), nonce: tokenized.result.nonce };
      try {
        const { paymentMethod } = await api.addPaymentMethod(save.key, save.nonce, false);
        unanswered.delete(card);
        const { nonce } = await api.savedMethodNonce(newKey(), paymentMethod.id);
        return { ok: true, result: { ...tokenized.result, nonce, vaulted: true, hasSubscription: false } };
      } catch (error) {
        const problem: Problem = error instanceof ApiError ? error.problem : { status: 0, code: 'unexpected_error' };
        if (problem.status === 0 || problem.status >= 500) unanswered.set(card, save);
        else unanswered.delete(card);
        const shown = SHEET_FAILURES[problem.code];
        // The sheet has its sentence for these; the others (a bot-check that failed, a card-save limit) are the
        // shop's to word, and the sheet says only that the card could not be processed.
        if (shown === undefined) ports.onProblem(problem);
        return { ok: false, error: { code: shown ?? problem.code, message: problem.detail ?? problem.code } };
      }
    },
  };
}

export interface ServerVaultPorts {
  /** A save refused for a reason the checkout's sheet cannot word: the page shows the shop's message. */
  onProblem(problem: Problem): void;
}

/** The server's refusals the checkout words itself (its catalogue's sentences, spec section 8). */
const SHEET_FAILURES: Readonly<Record<string, string>> = {
  payment_method_duplicate: 'duplicate_card',
  card_verification_failed: 'verification_failed',
  network_error: 'network',
};

const newKey = (): string => crypto.randomUUID();

/** A typed card as far as the page knows it (each Pay press tokenizes it afresh, under a new nonce). */
function cardIdentity(details: PaymentMethodResult['details']): string {
  return [details.bin, details.lastFour, details.expirationMonth, details.expirationYear].join(':');
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
