import type braintree from 'braintree';
import { callGateway } from './braintree.ts';
import type { CardDescription, CardLookup } from './card-lookup.ts';

/**
 * How many nonces Kassa made are remembered, and for how long: a saved card's nonce is asked for when Pay is pressed
 * and used at once. Past either, the nonce is described by the gateway like any other (the same answer, one more call).
 */
const REMEMBERED_NONCES = 10_000;
const REMEMBERED_NONCE_MS = 10 * 60 * 1000;

/**
 * paymentMethodNonce.find through the official SDK: it reads the nonce without using it. The nonces Kassa made itself
 * are described from the gateway's answer to their creation, kept in this process (several instances: the one that
 * made it answers without the call, the others ask).
 */
export class BraintreeCardLookup implements CardLookup {
  readonly #client: braintree.BraintreeGateway;
  readonly #clock: () => number;
  // Insertion order is age order: the oldest go first when it is full.
  readonly #made = new Map<string, { card: CardDescription; until: number }>();

  constructor(client: braintree.BraintreeGateway, clock: () => number = Date.now) {
    this.#client = client;
    this.#clock = clock;
  }

  remember(nonce: string, card: CardDescription): void {
    if (this.#made.size >= REMEMBERED_NONCES) {
      const oldest = this.#made.keys().next();
      if (oldest.done !== true) this.#made.delete(oldest.value);
    }
    this.#made.set(nonce, { card, until: this.#clock() + REMEMBERED_NONCE_MS });
  }

  async describeNonce(nonce: string): Promise<CardDescription | null> {
    const made = this.#made.get(nonce);
    if (made !== undefined) {
      this.#made.delete(nonce);
      if (made.until > this.#clock()) return made.card;
    }
    const found = await callGateway(() =>
      this.#client.paymentMethodNonce.find(nonce).catch((error: unknown) => {
        // An unknown nonce is an answer, not an outage.
        if (error instanceof Error && (error as { type?: string }).type === 'notFoundError') return null;
        throw error;
      }),
    );
    return found === null ? null : cardOfNonce(found);
  }
}

/** A card nonce's description as the gateway gives it (paymentMethodNonce.find or create); null for a wallet's. */
export function cardOfNonce(found: braintree.PaymentMethodNonce): CardDescription | null {
  const details = found.details;
  if (found.type !== 'CreditCard' || details?.bin === undefined || details.lastFour === undefined) return null;
  return {
    bin: details.bin,
    lastFour: details.lastFour,
    expirationMonth: details.expirationMonth ?? '',
    expirationYear: details.expirationYear ?? '',
  };
}
