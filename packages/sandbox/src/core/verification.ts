import { randomId } from './ids.ts';
import type { Card } from './cards.ts';
import { APPROVED, NETWORK_UNAVAILABLE, processorDecline } from './processor-responses.ts';
import type { ProcessorResponse } from './processor-responses.ts';

// Card verification: a zero- or small-amount authorization the provider runs when a card is saved with
// `options.verifyCard`. Its outcome depends on the CARD (gateway.md "Sandbox test values"): the failing-verification
// numbers answer processor_declined 2000, the fraud number gateway_rejected fraud, and, when the merchant has turned
// on the CVV / AVS rules, CVV 200 is rejected as `cvv` and postal code 20000 as `avs`.

/** The merchant's AVS/CVV rules (the provider's Control Panel fraud settings), off unless configured. */
export interface CardRules {
  cvv: boolean;
  avs: boolean;
}

export const NO_CARD_RULES: CardRules = { cvv: false, avs: false };

export type VerificationStatus = 'verified' | 'processor_declined' | 'gateway_rejected' | 'failed';
export type RulesRejection = 'cvv' | 'avs' | 'avs_and_cvv';

export interface Verification {
  id: string;
  status: VerificationStatus;
  /** Decimal string; "0.00" unless `verificationAmount` asked for another. */
  amount: string;
  currencyIsoCode: string;
  merchantAccountId: string;
  processorResponse: ProcessorResponse | null;
  gatewayRejectionReason: RulesRejection | 'fraud' | null;
  securityCodeResponseCode: string;
  avsPostalCodeResponseCode: string;
  card: Card;
  paymentMethodToken: string | null;
  createdAt: Date;
}

/** The CVV check: 'M' matched, 'N' did not match, 'S' not verified by the issuer, 'I' not provided (the provider's letters). */
export function securityCodeResponseCode(card: Card): string {
  return card.securityCodeResponseCode ?? 'M';
}

export function postalCodeResponseCode(card: Card): string {
  return card.postalCodeResponseCode ?? (card.postalCode === null ? 'I' : 'M');
}

/** What the merchant's rules reject this card for, or null. Used by verifications and by sales alike. */
export function rulesRejection(card: Card, rules: CardRules): RulesRejection | null {
  const cvv = rules.cvv && securityCodeResponseCode(card) === 'N';
  const avs = rules.avs && postalCodeResponseCode(card) === 'N';
  if (cvv && avs) return 'avs_and_cvv';
  if (cvv) return 'cvv';
  if (avs) return 'avs';
  return null;
}

export interface VerificationContext {
  amount: string;
  currencyIsoCode: string;
  merchantAccountId: string;
  rules: CardRules;
  paymentMethodToken: string | null;
}

export function verifyCard(card: Card, context: VerificationContext, now: Date): Verification {
  const rejection = card.behaviour === 'fraud' ? 'fraud' : rulesRejection(card, context.rules);
  let status: VerificationStatus = 'verified';
  let processorResponse: ProcessorResponse | null = APPROVED;
  if (rejection !== null) {
    status = 'gateway_rejected';
    processorResponse = null;
  } else if (card.behaviour === 'verification_declined' || card.behaviour === 'processor_declined') {
    status = 'processor_declined';
    processorResponse = processorDecline(2000);
  } else if (card.behaviour === 'processor_failure') {
    status = 'failed';
    processorResponse = NETWORK_UNAVAILABLE;
  }
  return {
    id: randomId(8),
    status,
    amount: context.amount,
    currencyIsoCode: context.currencyIsoCode,
    merchantAccountId: context.merchantAccountId,
    processorResponse,
    gatewayRejectionReason: rejection,
    securityCodeResponseCode: securityCodeResponseCode(card),
    avsPostalCodeResponseCode: postalCodeResponseCode(card),
    card,
    paymentMethodToken: context.paymentMethodToken,
    createdAt: now,
  };
}

/** The result message of a failed verification, as the provider words it. */
export function verificationMessage(verification: Verification): string {
  if (verification.status === 'gateway_rejected') return `Gateway Rejected: ${verification.gatewayRejectionReason ?? ''}`;
  return verification.processorResponse?.text ?? 'Verification failed.';
}
