import { describe, expect, it } from 'vitest';
import { UNKNOWN_BIN_DATA } from './cards.ts';
import type { Card } from './cards.ts';
import { decideSale, formatAmount, parseAmount, validateAmount } from './transactions.ts';
import { androidPayCard, applePayCard, paypalAccount, threeDSecureApplies, venmoAccount } from './wallets.ts';

const card: Card = {
  bin: '411111',
  last4: '1111',
  cardType: 'Visa',
  expirationMonth: '12',
  expirationYear: '2030',
  cardholderName: null,
  postalCode: null,
  uniqueNumberIdentifier: 'x',
  binData: UNKNOWN_BIN_DATA,
  behaviour: 'normal',
};

describe('amounts', () => {
  it('parses and formats decimal strings as minor units', () => {
    expect(parseAmount('10')).toBe(1000);
    expect(parseAmount('10.5')).toBe(1050);
    expect(parseAmount('1999.99')).toBe(199999);
    expect(parseAmount('1.234')).toBeNull();
    expect(parseAmount('-1.00')).toBeNull();
    expect(formatAmount(5)).toBe('0.05');
    expect(formatAmount(199999)).toBe('1999.99');
  });

  it('validates with the provider codes', () => {
    expect(validateAmount(undefined)).toMatchObject({ code: '81502' });
    expect(validateAmount('ten')).toMatchObject({ code: '81503' });
    expect(validateAmount('0.00')).toMatchObject({ code: '81531' });
    expect(validateAmount('0.01')).toBe(1);
  });
});

describe('sale outcomes (sandbox test amounts)', () => {
  it.each([
    [1, 'authorized', undefined],
    [199999, 'authorized', undefined],
    [200000, 'processor_declined', '2000'],
    [201599, 'processor_declined', '2015'],
    [299999, 'processor_declined', '2999'],
    [300000, 'failed', '3000'],
    [300099, 'failed', '3000'],
    [300100, 'authorized', undefined],
    [500100, 'gateway_rejected', undefined],
    [500101, 'authorized', undefined],
  ])('%i minor units -> %s %s', (amount, status, code) => {
    const decision = decideSale(amount, card, false);
    expect(decision.status).toBe(status);
    if (code !== undefined && 'response' in decision) expect(decision.response.code).toBe(code);
  });

  it('gives 2000 and 2015 their texts and soft/hard types', () => {
    expect(decideSale(200000, card, false)).toMatchObject({ response: { text: 'Do Not Honor', type: 'soft_declined' } });
    expect(decideSale(201500, card, false)).toMatchObject({
      response: { text: 'Transaction Not Allowed', type: 'hard_declined' },
    });
  });

  it('lets the card behaviour and 3-D Secure requirement win over the amount', () => {
    expect(decideSale(1000, { ...card, behaviour: 'fraud' }, false)).toEqual({ status: 'gateway_rejected', reason: 'fraud' });
    expect(decideSale(1000, card, true)).toEqual({ status: 'gateway_rejected', reason: 'three_d_secure' });
    expect(decideSale(1000, { ...card, behaviour: 'processor_declined' }, false)).toMatchObject({ status: 'processor_declined' });
    expect(decideSale(1000, { ...card, behaviour: 'processor_failure' }, false)).toMatchObject({ status: 'failed' });
  });
});

describe('what 3-D Secure applies to (threeDSecure.required)', () => {
  it('cards and Google Pay cards that are not network tokens; not Apple Pay, Google Pay tokens, PayPal or Venmo', () => {
    const googlePayToken = androidPayCard('Visa', '1111');
    expect(threeDSecureApplies(null)).toBe(true);
    expect(threeDSecureApplies({ ...googlePayToken, isNetworkTokenized: false } as typeof googlePayToken)).toBe(true);
    expect(threeDSecureApplies(googlePayToken)).toBe(false);
    expect(threeDSecureApplies(applePayCard('Visa', '1111'))).toBe(false);
    expect(threeDSecureApplies(paypalAccount(false, 'seed'))).toBe(false);
    expect(threeDSecureApplies(venmoAccount())).toBe(false);
  });
});
