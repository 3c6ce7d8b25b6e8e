import { createHash } from 'node:crypto';
import { UNKNOWN_BIN_DATA } from './cards.ts';
import type { BinData, Card, CardBehaviour, CardType } from './cards.ts';
import { threeDSecureInfo } from './three-d-secure.ts';
import { androidPayCard, applePayCard, paypalAccount, venmoAccount } from './wallets.ts';
import type { WalletAccount } from './wallets.ts';
import type { ThreeDSecureInfo, ThreeDSecureOutcome } from './three-d-secure.ts';

// The provider's fixed test nonces (gateway.md). Each stands for an already tokenized test card and can be used
// any number of times, as on the real sandbox. Kept as a table so adding one is one line.

export type FakeNonce =
  | { kind: 'card'; card: Card; threeDSecureInfo?: ThreeDSecureInfo; wallet?: WalletAccount }
  | { kind: 'consumed' }
  | { kind: 'luhn_invalid' };

interface FakeCardSpec {
  number: string;
  cardType: CardType;
  behaviour?: CardBehaviour;
  binData?: Partial<BinData>;
  /** The 3-D Secure result the nonce carries, and whether a challenge led to it. */
  threeDSecure?: { outcome: ThreeDSecureOutcome; challenged?: boolean };
  /** A wallet nonce: the account it stands for (PayPal and Venmo accounts charge no card the merchant sees). */
  wallet?: 'paypal_one_time' | 'paypal_billing_agreement' | 'venmo' | 'apple_pay' | 'android_pay';
}

const VISA: FakeCardSpec = { number: '4012888888881881', cardType: 'Visa' };

const FAKE_CARDS: Readonly<Record<string, FakeCardSpec>> = {
  'fake-valid-nonce': VISA,
  'fake-valid-visa-nonce': VISA,
  'fake-valid-amex-nonce': { number: '378282246310005', cardType: 'American Express' },
  'fake-valid-mastercard-nonce': { number: '5555555555554444', cardType: 'MasterCard' },
  'fake-valid-discover-nonce': { number: '6011111111111117', cardType: 'Discover' },
  'fake-valid-jcb-nonce': { number: '3530111333300000', cardType: 'JCB' },
  'fake-valid-maestro-nonce': { number: '6304000000000000', cardType: 'Maestro' },
  'fake-valid-dinersclub-nonce': { number: '36259600000004', cardType: 'Diners Club' },
  'fake-valid-prepaid-nonce': { ...VISA, binData: { prepaid: 'Yes' } },
  'fake-valid-commercial-nonce': { ...VISA, binData: { commercial: 'Yes' } },
  'fake-valid-debit-nonce': { ...VISA, binData: { debit: 'Yes' } },
  'fake-valid-payroll-nonce': { ...VISA, binData: { payroll: 'Yes' } },
  'fake-valid-healthcare-nonce': { ...VISA, binData: { healthcare: 'Yes' } },
  'fake-valid-durbin-regulated-nonce': { ...VISA, binData: { durbinRegulated: 'Yes' } },
  'fake-processor-declined-visa-nonce': { number: '4000111111111115', cardType: 'Visa', behaviour: 'processor_declined' },
  'fake-processor-declined-mastercard-nonce': {
    number: '5105105105105100',
    cardType: 'MasterCard',
    behaviour: 'processor_declined',
  },
  'fake-processor-declined-amex-nonce': {
    number: '378734493671000',
    cardType: 'American Express',
    behaviour: 'processor_declined',
  },
  'fake-processor-declined-discover-nonce': {
    number: '6011000990139424',
    cardType: 'Discover',
    behaviour: 'processor_declined',
  },
  'fake-processor-failure-jcb-nonce': { number: '3566002020360505', cardType: 'JCB', behaviour: 'processor_failure' },
  'fake-gateway-rejected-fraud-nonce': { number: '4000111111111511', cardType: 'Visa', behaviour: 'fraud' },
  'fake-paypal-one-time-nonce': { ...VISA, wallet: 'paypal_one_time' },
  'fake-paypal-billing-agreement-nonce': { ...VISA, wallet: 'paypal_billing_agreement' },
  'fake-venmo-account-nonce': { ...VISA, wallet: 'venmo' },
  'fake-apple-pay-visa-nonce': { number: '4111111111111111', cardType: 'Visa', wallet: 'apple_pay' },
  'fake-apple-pay-mastercard-nonce': { number: '5555555555554444', cardType: 'MasterCard', wallet: 'apple_pay' },
  'fake-apple-pay-amex-nonce': { number: '378282246310005', cardType: 'American Express', wallet: 'apple_pay' },
  'fake-android-pay-visa-nonce': { number: '4111111111111111', cardType: 'Visa', wallet: 'android_pay' },
  'fake-android-pay-mastercard-nonce': { number: '5555555555554444', cardType: 'MasterCard', wallet: 'android_pay' },
  'fake-android-pay-amex-nonce': { number: '378282246310005', cardType: 'American Express', wallet: 'android_pay' },
  'fake-android-pay-discover-nonce': { number: '6011111111111117', cardType: 'Discover', wallet: 'android_pay' },
  'fake-three-d-secure-visa-full-authentication-nonce': {
    number: '4000000000001000',
    cardType: 'Visa',
    threeDSecure: { outcome: 'authenticated', challenged: true },
  },
  'fake-three-d-secure-two-visa-successful-frictionless-authentication-nonce': {
    number: '4000000000002701',
    cardType: 'Visa',
    threeDSecure: { outcome: 'authenticated' },
  },
  'fake-three-d-secure-two-visa-successful-step-up-authentication-nonce': {
    number: '4000000000001091',
    cardType: 'Visa',
    threeDSecure: { outcome: 'authenticated', challenged: true },
  },
  'fake-three-d-secure-two-visa-error-on-lookup-nonce': {
    number: '4000000000001125',
    cardType: 'Visa',
    threeDSecure: { outcome: 'lookup_error' },
  },
  'fake-three-d-secure-two-visa-timeout-on-lookup-nonce': {
    number: '4000000000001075',
    cardType: 'Visa',
    threeDSecure: { outcome: 'lookup_error' },
  },
};

function cardFromSpec(spec: FakeCardSpec, now: Date): Card {
  return {
    bin: spec.number.slice(0, 6),
    last4: spec.number.slice(-4),
    cardType: spec.cardType,
    expirationMonth: '12',
    expirationYear: String(now.getUTCFullYear() + 3),
    cardholderName: null,
    postalCode: null,
    // Fake nonces are public test cards, so no key is needed; still a hash, never the number itself, so that no
    // full card number ends up in a transaction (nor in the sandbox's data file).
    uniqueNumberIdentifier: createHash('sha256').update(`fake-nonce-card:${spec.number}`).digest('hex').slice(0, 32),
    binData: { ...UNKNOWN_BIN_DATA, ...spec.binData },
    behaviour: spec.behaviour ?? 'normal',
  };
}

export function lookUpFakeNonce(nonce: string, now: Date): FakeNonce | null {
  if (nonce === 'fake-consumed-nonce') return { kind: 'consumed' };
  if (nonce === 'fake-luhn-invalid-nonce') return { kind: 'luhn_invalid' };
  const spec = Object.hasOwn(FAKE_CARDS, nonce) ? FAKE_CARDS[nonce] : undefined;
  if (spec === undefined) return null;
  const card = cardFromSpec(spec, now);
  if (spec.wallet !== undefined) return { kind: 'card', card, wallet: fakeWallet(spec.wallet, card, nonce) };
  if (spec.threeDSecure === undefined) return { kind: 'card', card };
  return {
    kind: 'card',
    card,
    threeDSecureInfo: threeDSecureInfo(spec.threeDSecure.outcome, card.cardType, spec.threeDSecure.challenged),
  };
}

function fakeWallet(wallet: NonNullable<FakeCardSpec['wallet']>, card: Card, nonce: string): WalletAccount {
  switch (wallet) {
    case 'paypal_one_time':
      return paypalAccount(false, nonce);
    case 'paypal_billing_agreement':
      return paypalAccount(true, nonce);
    case 'venmo':
      return venmoAccount();
    case 'apple_pay':
      return applePayCard(card.cardType, card.last4);
    case 'android_pay':
      return androidPayCard(card.cardType, card.last4);
  }
}
