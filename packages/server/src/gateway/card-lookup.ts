/**
 * What a nonce stands for, asked of the gateway before a payment so the velocity rules can count cards and BINs
 * (src/velocity/). Never the number: the BIN (first six), the last four and the expiry, as the gateway describes it.
 */
export interface CardDescription {
  bin: string;
  lastFour: string;
  expirationMonth: string;
  expirationYear: string;
}

export interface CardLookup {
  /** null: not a card (a wallet account), or a nonce the gateway does not know (the sale will refuse it). */
  describeNonce(nonce: string): Promise<CardDescription | null>;
  /**
   * A nonce Kassa made itself (a saved card's, `paymentMethodNonce.create`), with the card as the gateway described it
   * in that answer: describeNonce then answers it without asking the gateway again.
   */
  remember(nonce: string, card: CardDescription): void;
}
