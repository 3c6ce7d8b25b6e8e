import { describe, expect, it } from 'vitest';
import type { SavedPaymentMethod } from '../api/types.ts';
import { declineMessage, messages, problemMessage } from './messages.ts';

describe('messages for server answers', () => {
  it('names the processor response of a decline', () => {
    expect(
      declineMessage({ reason: 'processor_declined', processorResponseCode: '2000', processorResponseText: 'Do Not Honor' }),
    ).toBe('Your card was declined (Do Not Honor). Please try another card.');
    expect(declineMessage({ reason: 'processor_unavailable' })).toMatch(/No money was taken/);
    expect(declineMessage({ reason: 'currency_mismatch' })).toMatch(
      /^This shop cannot take card payments right now\. No money was taken/,
    );
  });

  it('maps problem codes, field errors and unknown codes', () => {
    expect(problemMessage({ status: 0, code: 'network_error' })).toBe('Network error. Please try again.');
    expect(
      problemMessage({
        status: 400,
        code: 'validation_failed',
        errors: [{ field: 'email', code: 'invalid', message: 'Enter a valid email.' }],
      }),
    ).toBe('Enter a valid email.');
    expect(problemMessage({ status: 500, code: 'something_new' })).toBe('Something went wrong. Please try again.');
  });
});

describe('saved methods named as the shopper knows them', () => {
  const base: SavedPaymentMethod = {
    id: 'tok',
    type: 'CreditCard',
    brand: 'MasterCard',
    bin: '555555',
    lastFour: '4444',
    expirationMonth: '12',
    expirationYear: '2030',
    cardholderName: null,
    email: null,
    username: null,
    default: false,
    hasSubscription: false,
  };
  const none = { brand: '', bin: '', lastFour: '' };

  it('says which wallet is already saved when the server answers wallet_already_saved', () => {
    const paypal = { ...base, ...none, type: 'PayPalAccount', email: 'pat@example.com' } as const;
    expect(problemMessage({ status: 409, code: 'wallet_already_saved', paymentMethod: paypal })).toBe(
      'PayPal · pat@example.com is already saved.',
    );
  });

  it.each([
    { label: 'Mastercard ending in 4444', method: base },
    { label: 'PayPal · pat@example.com', method: { ...base, ...none, type: 'PayPalAccount', email: 'pat@example.com' } },
    { label: 'Venmo · @venmojoe', method: { ...base, ...none, type: 'VenmoAccount', username: 'venmojoe' } },
    { label: 'Apple Pay · Visa ending in 1234', method: { ...base, type: 'ApplePayCard', brand: 'Visa', lastFour: '1234' } },
    { label: 'Google Pay · Mastercard ending in 4444', method: { ...base, type: 'AndroidPayCard' } },
  ] as const)('$method.type reads $label', ({ method, label }) => {
    expect(messages.savedMethodLabel(method)).toBe(label);
  });
});
