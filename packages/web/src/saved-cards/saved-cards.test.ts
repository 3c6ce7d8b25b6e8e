import type { PaymentMethodResult } from '@kassa/checkout';
import { describe, expect, it } from 'vitest';
import type { SavedPaymentMethod } from '../api/types.ts';
import { serverMethodFor } from './saved-cards.ts';

const visa: SavedPaymentMethod = {
  id: 'tok_visa',
  type: 'CreditCard',
  brand: 'Visa',
  bin: '411111',
  lastFour: '1111',
  expirationMonth: '12',
  expirationYear: '2029',
  cardholderName: null,
  email: null,
  username: null,
  default: true,
  hasSubscription: false,
};

/** A saved card as the checkout lists it (the gateway's client API: a nonce, no token). */
function listed(details: Partial<PaymentMethodResult['details']>, extra: Partial<PaymentMethodResult> = {}): PaymentMethodResult {
  return {
    nonce: 'nonce-1',
    type: 'CreditCard',
    details: {
      bin: '411111',
      cardType: 'Visa',
      lastFour: '1111',
      lastTwo: '11',
      expirationMonth: '12',
      expirationYear: '2029',
      cardholderName: null,
      ...details,
    },
    description: 'ending in 11',
    binData: undefined,
    vaulted: true,
    hasSubscription: false,
    liabilityShifted: undefined,
    liabilityShiftPossible: undefined,
    threeDSecureInfo: undefined,
    deviceData: undefined,
    ...extra,
  };
}

describe('serverMethodFor', () => {
  const mastercard = { ...visa, id: 'tok_mc', brand: 'MasterCard', bin: '555555', lastFour: '4444', default: false };

  it("finds the server's card by brand, BIN, last four and expiry (a one-digit month as the gateway may spell it)", () => {
    expect(serverMethodFor(listed({}), [mastercard, visa])?.id).toBe('tok_visa');
    expect(serverMethodFor(listed({ expirationMonth: '07' }), [{ ...visa, expirationMonth: '7' }])?.id).toBe('tok_visa');
    expect(serverMethodFor(listed({ bin: '555555', cardType: 'MasterCard', lastFour: '4444' }), [visa, mastercard])?.id).toBe(
      'tok_mc',
    );
  });

  it('matches nothing when any of them differs: no card is deleted on a guess', () => {
    expect(serverMethodFor(listed({ lastFour: '1112' }), [visa])).toBeNull();
    expect(serverMethodFor(listed({ expirationYear: '2030' }), [visa])).toBeNull();
    expect(serverMethodFor(listed({ cardType: 'MasterCard' }), [visa])).toBeNull();
    expect(serverMethodFor(listed({}), [])).toBeNull();
  });

  it('tells two alike cards apart by the default flag, and refuses when it cannot', () => {
    const twin = { ...visa, id: 'tok_twin', default: false };
    expect(serverMethodFor(listed({}, { default: false }), [visa, twin])?.id).toBe('tok_twin');
    expect(serverMethodFor(listed({}), [visa, twin])).toBeNull();
  });

  it("finds a saved wallet by its kind and account: PayPal's email, the Venmo username, a phone wallet's card", () => {
    const wallet = { ...visa, bin: '', expirationMonth: '', expirationYear: '', default: false };
    const paypal = { ...wallet, id: 'tok_pp', type: 'PayPalAccount', brand: '', lastFour: '', email: 'pat@example.com' } as const;
    const venmo = { ...wallet, id: 'tok_vm', type: 'VenmoAccount', brand: '', lastFour: '', username: 'venmojoe' } as const;
    const applePay = { ...wallet, id: 'tok_ap', type: 'ApplePayCard' } as const;
    const saved = [visa, paypal, venmo, applePay];
    expect(serverMethodFor(listed({ email: 'pat@example.com' }, { type: 'PayPalAccount' }), saved)?.id).toBe('tok_pp');
    expect(serverMethodFor(listed({ email: 'other@example.com' }, { type: 'PayPalAccount' }), saved)).toBeNull();
    expect(serverMethodFor(listed({ username: 'venmojoe' }, { type: 'VenmoAccount' }), saved)?.id).toBe('tok_vm');
    // An Apple Pay card is not the saved card of the same brand and last four, nor the other way round.
    expect(serverMethodFor(listed({}, { type: 'ApplePayCard' }), saved)?.id).toBe('tok_ap');
    expect(serverMethodFor(listed({}, { type: 'AndroidPayCard' }), saved)).toBeNull();
    expect(serverMethodFor(listed({}), saved)?.id).toBe('tok_visa');
  });
});
