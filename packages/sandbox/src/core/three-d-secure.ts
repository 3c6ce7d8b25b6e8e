import { randomBytes, randomUUID } from 'node:crypto';
import type { Card, CardType } from './cards.ts';

// 3-D Secure 2 as the provider's sandbox plays it (gateway.md, "3-D Secure 2 test cards"): what a card's issuer does
// (its scenario, known from the test number at tokenization), and the result a lookup or a challenge gives, in the
// provider's `threeDSecureInfo` shape. No HTTP here: client-api/ and pages/three-d-secure/ serve it.

export const THREE_D_SECURE_SCENARIOS = [
  'frictionless_success',
  'frictionless_failed',
  'attempt_successful',
  'unavailable',
  'challenge_success',
  'challenge_failed',
  'lookup_error',
  'lookup_timeout',
  'not_enrolled',
] as const;
export type ThreeDSecureScenario = (typeof THREE_D_SECURE_SCENARIOS)[number];

/** The provider's 3-D Secure 2 test cards; any other card is not enrolled. */
export const THREE_D_SECURE_TEST_CARDS: Readonly<Record<string, ThreeDSecureScenario>> = {
  '4000000000002701': 'frictionless_success',
  '5200000000002235': 'frictionless_success',
  '340000000002708': 'frictionless_success',
  '6011000000002117': 'frictionless_success',
  '4000000000002925': 'frictionless_failed',
  '5200000000002276': 'frictionless_failed',
  '340000000002096': 'frictionless_failed',
  '6011000000002364': 'frictionless_failed',
  '4000000000002719': 'attempt_successful',
  '5200000000002482': 'attempt_successful',
  '4000000000002313': 'unavailable',
  '4000000000001091': 'challenge_success',
  '4000000000001109': 'challenge_failed',
  '4000000000001125': 'lookup_error',
  '4000000000001075': 'lookup_timeout',
};

/** The one-time code the sandbox's challenge page accepts (gateway.md). */
export const CHALLENGE_CODE = '1234';

/** What the provider reports of a 3-D Secure authentication, on nonces (client API) and transactions (SDK). */
export interface ThreeDSecureInfo {
  liabilityShifted: boolean;
  liabilityShiftPossible: boolean;
  status: string;
  /** Y enrolled, N not enrolled, U unavailable. */
  enrolled: 'Y' | 'N' | 'U';
  cavv: string | null;
  eciFlag: string | null;
  xid: null;
  dsTransactionId: string | null;
  threeDSecureVersion: string;
  threeDSecureAuthenticationId: string;
  acsTransactionId: string | null;
  lookup: { transStatus: string | null; transStatusReason: string | null };
  authentication: { transStatus: string | null; transStatusReason: string | null };
}

/** A result: the end of a frictionless flow or of a challenge. */
export type ThreeDSecureOutcome =
  /** Not an end: the lookup's answer when the issuer wants a challenge. */
  | 'challenge_required'
  | 'authenticated'
  | 'attempted'
  | 'frictionless_failed'
  | 'challenge_failed'
  | 'unavailable'
  | 'lookup_error'
  | 'not_enrolled';

interface OutcomeSpec {
  status: string;
  liabilityShifted: boolean;
  liabilityShiftPossible: boolean;
  enrolled: ThreeDSecureInfo['enrolled'];
  /** Directory server answer: Y authenticated, A attempted, N failed, U unavailable; null when nothing was asked. */
  transStatus: string | null;
  /** Whether the issuer's server took part (a cavv and an ACS transaction id exist). */
  authenticated: boolean;
}

const OUTCOMES: Readonly<Record<ThreeDSecureOutcome, OutcomeSpec>> = {
  challenge_required: {
    status: 'challenge_required',
    liabilityShifted: false,
    liabilityShiftPossible: true,
    enrolled: 'Y',
    transStatus: 'C',
    authenticated: false,
  },
  authenticated: {
    status: 'authenticate_successful',
    liabilityShifted: true,
    liabilityShiftPossible: true,
    enrolled: 'Y',
    transStatus: 'Y',
    authenticated: true,
  },
  attempted: {
    status: 'authenticate_attempt_successful',
    liabilityShifted: true,
    liabilityShiftPossible: true,
    enrolled: 'Y',
    transStatus: 'A',
    authenticated: true,
  },
  frictionless_failed: {
    status: 'authenticate_frictionless_failed',
    liabilityShifted: false,
    liabilityShiftPossible: true,
    enrolled: 'Y',
    transStatus: 'N',
    authenticated: false,
  },
  challenge_failed: {
    status: 'authenticate_failed',
    liabilityShifted: false,
    liabilityShiftPossible: true,
    enrolled: 'Y',
    transStatus: 'N',
    authenticated: false,
  },
  unavailable: {
    status: 'authentication_unavailable',
    liabilityShifted: false,
    liabilityShiftPossible: false,
    enrolled: 'U',
    transStatus: 'U',
    authenticated: false,
  },
  lookup_error: {
    status: 'lookup_error',
    liabilityShifted: false,
    liabilityShiftPossible: false,
    enrolled: 'U',
    transStatus: null,
    authenticated: false,
  },
  not_enrolled: {
    status: 'lookup_not_enrolled',
    liabilityShifted: false,
    liabilityShiftPossible: false,
    enrolled: 'N',
    transStatus: null,
    authenticated: false,
  },
};

/** The ECI a card network gives an authenticated (05/02) or attempted (06/01) payment; 07/00 otherwise. */
function eciFlag(cardType: CardType, transStatus: string | null): string | null {
  if (transStatus === null) return null;
  const mastercard = cardType === 'MasterCard' || cardType === 'Maestro';
  if (transStatus === 'Y') return mastercard ? '02' : '05';
  if (transStatus === 'A') return mastercard ? '01' : '06';
  return mastercard ? '00' : '07';
}

/** The info for an outcome; `challenged` says whether the shopper went through a challenge. */
export function threeDSecureInfo(outcome: ThreeDSecureOutcome, cardType: CardType, challenged = false): ThreeDSecureInfo {
  const spec = OUTCOMES[outcome];
  return {
    liabilityShifted: spec.liabilityShifted,
    liabilityShiftPossible: spec.liabilityShiftPossible,
    status: spec.status,
    enrolled: spec.enrolled,
    cavv: spec.authenticated ? randomBytes(20).toString('base64') : null,
    eciFlag: eciFlag(cardType, spec.transStatus),
    xid: null,
    dsTransactionId: spec.transStatus === null ? null : randomUUID(),
    threeDSecureVersion: '2.2.0',
    threeDSecureAuthenticationId: randomBytes(12).toString('hex'),
    acsTransactionId: spec.authenticated || challenged ? randomUUID() : null,
    lookup: { transStatus: challenged ? 'C' : spec.transStatus, transStatusReason: null },
    authentication: { transStatus: challenged || spec.authenticated ? spec.transStatus : null, transStatusReason: null },
  };
}

/** What a lookup leads to for a card: a result at once, or a challenge first. */
export function lookupOutcome(card: Card): ThreeDSecureOutcome | 'challenge' {
  switch (card.threeDSecureScenario ?? 'not_enrolled') {
    case 'frictionless_success':
      return 'authenticated';
    case 'frictionless_failed':
      return 'frictionless_failed';
    case 'attempt_successful':
      return 'attempted';
    case 'unavailable':
      return 'unavailable';
    case 'challenge_success':
    case 'challenge_failed':
      return 'challenge';
    case 'lookup_error':
    case 'lookup_timeout':
      return 'lookup_error';
    case 'not_enrolled':
      return 'not_enrolled';
  }
}

/** The end of a challenge: the success card with the right code passes; anything else fails. */
export function challengeOutcome(card: Card, code: string): ThreeDSecureOutcome {
  return card.threeDSecureScenario === 'challenge_success' && code === CHALLENGE_CODE ? 'authenticated' : 'challenge_failed';
}
