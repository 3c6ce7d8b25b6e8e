import { describe, expect, it } from 'vitest';
import type { SavedPaymentMethod } from '../api/types.ts';
import { serverMethodFor } from './saved-cards.ts';
import { checkoutMethod } from './server-vault.ts';

const card: SavedPaymentMethod = {
  id: 'tok_visa',
  type: 'CreditCard',
  brand: 'Visa',
  bin: '411111',
  lastFour: '1111',
  expirationMonth: '12',
  expirationYear: '2029',
  cardholderName: 'Ada Lovelace',
  email: null,
  username: null,
  default: true,
  hasSubscription: true,
};
const wallet = {
  ...card,
  bin: '',
  expirationMonth: '',
  expirationYear: '',
  cardholderName: null,
  default: false,
  hasSubscription: false,
};
const paypal: SavedPaymentMethod = {
  ...wallet,
  id: 'tok_pp',
  type: 'PayPalAccount',
  brand: '',
  lastFour: '',
  email: 'pat@example.com',
};
const venmo: SavedPaymentMethod = {
  ...wallet,
  id: 'tok_vm',
  type: 'VenmoAccount',
  brand: '',
  lastFour: '',
  username: 'venmojoe',
};
const applePay: SavedPaymentMethod = { ...wallet, id: 'tok_ap', type: 'ApplePayCard', lastFour: '4242' };

describe('checkoutMethod', () => {
  it("gives the checkout a saved card as the gateway's client API listed it: a saved method paying with the server's nonce", () => {
    expect(checkoutMethod(card, 'nonce-from-server')).toMatchObject({
      nonce: 'nonce-from-server',
      type: 'CreditCard',
      details: {
        bin: '411111',
        cardType: 'Visa',
        lastFour: '1111',
        lastTwo: '11',
        expirationMonth: '12',
        expirationYear: '2029',
        cardholderName: 'Ada Lovelace',
      },
      description: 'ending in 11',
      vaulted: true,
      default: true,
      hasSubscription: true,
    });
  });

  it("names a saved wallet by what the checkout shows of it: PayPal's email, the Venmo username, a phone wallet's card", () => {
    expect(checkoutMethod(paypal, 'n1')).toMatchObject({ type: 'PayPalAccount', details: { email: 'pat@example.com' } });
    expect(checkoutMethod(venmo, 'n2')).toMatchObject({ type: 'VenmoAccount', details: { username: 'venmojoe' } });
    expect(checkoutMethod(applePay, 'n3')).toMatchObject({ type: 'ApplePayCard', description: 'Visa 4242' });
    expect(checkoutMethod(paypal, 'n1').details).not.toHaveProperty('username');
  });

  it("is found again among the server's methods when the shopper deletes it in the checkout", () => {
    const saved = [card, paypal, venmo, applePay];
    for (const method of saved) expect(serverMethodFor(checkoutMethod(method, 'n'), saved)?.id).toBe(method.id);
  });
});
