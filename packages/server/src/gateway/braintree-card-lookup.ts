import type braintree from 'braintree';
import { callGateway } from './braintree.ts';
import type { CardDescription, CardLookup } from './card-lookup.ts';

/** paymentMethodNonce.find through the official SDK: it reads the nonce without using it. */
export class BraintreeCardLookup implements CardLookup {
  readonly #client: braintree.BraintreeGateway;

  constructor(client: braintree.BraintreeGateway) {
    this.#client = client;
  }

  async describeNonce(nonce: string): Promise<CardDescription | null> {
    const found = await callGateway(() =>
      this.#client.paymentMethodNonce.find(nonce).catch((error: unknown) => {
        // An unknown nonce is an answer, not an outage.
        if (error instanceof Error && (error as { type?: string }).type === 'notFoundError') return null;
        throw error;
      }),
    );
    const details = found?.details;
    if (found?.type !== 'CreditCard' || details?.bin === undefined || details.lastFour === undefined) return null;
    return {
      bin: details.bin,
      lastFour: details.lastFour,
      expirationMonth: details.expirationMonth ?? '',
      expirationYear: details.expirationYear ?? '',
    };
  }
}
