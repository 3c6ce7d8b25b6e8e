import type { PaymentMethodResult } from '@kassa/checkout';
import { describe, expect, it } from 'vitest';
import type { SavedPaymentMethod } from '../api/types.ts';
import { serverCardFor } from './saved-cards.ts';

const visa: SavedPaymentMethod = {
  id: 'tok_visa',
  type: 'CreditCard',
  brand: 'Visa',
  bin: '411111',
  lastFour: '1111',
  expirationMonth: '12',
  expirationYear: '2029',
  cardholderName: null,
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

describe('serverCardFor', () => {
  const mastercard = { ...visa, id: 'tok_mc', brand: 'MasterCard', bin: '555555', lastFour: '4444', default: false };

  it("finds the server's card by brand, BIN, last four and expiry (a one-digit month as the gateway may spell it)", () => {
    expect(serverCardFor(listed({}), [mastercard, visa])?.id).toBe('tok_visa');
    expect(serverCardFor(listed({ expirationMonth: '07' }), [{ ...visa, expirationMonth: '7' }])?.id).toBe('tok_visa');
    expect(serverCardFor(listed({ bin: '555555', cardType: 'MasterCard', lastFour: '4444' }), [visa, mastercard])?.id).toBe(
      'tok_mc',
    );
  });

  it('matches nothing when any of them differs: no card is deleted on a guess', () => {
    expect(serverCardFor(listed({ lastFour: '1112' }), [visa])).toBeNull();
    expect(serverCardFor(listed({ expirationYear: '2030' }), [visa])).toBeNull();
    expect(serverCardFor(listed({ cardType: 'MasterCard' }), [visa])).toBeNull();
    expect(serverCardFor(listed({}), [])).toBeNull();
  });

  it('tells two alike cards apart by the default flag, and refuses when it cannot', () => {
    const twin = { ...visa, id: 'tok_twin', default: false };
    expect(serverCardFor(listed({}, { default: false }), [visa, twin])?.id).toBe('tok_twin');
    expect(serverCardFor(listed({}), [visa, twin])).toBeNull();
  });
});
