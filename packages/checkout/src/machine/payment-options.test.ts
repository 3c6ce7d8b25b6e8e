import { describe, expect, it } from 'vitest';
import { gatewayConfiguration } from '../testing/fixtures.ts';
import { offeredOptions, PAYMENT_OPTIONS, type PaymentOptionId } from './payment-options.ts';

const everything = { card: true, paypal: true, paypalCredit: true, venmo: true, applePay: true, googlePay: true };
const allWallets = gatewayConfiguration({ paypalEnabled: true, applePayWeb: true, androidPay: true, payWithVenmo: true });

describe('offered options', () => {
  it('keeps the merchant priority and only what merchant, gateway and browser all enable', () => {
    expect(offeredOptions(allWallets, PAYMENT_OPTIONS, everything, () => true)).toEqual(PAYMENT_OPTIONS);
    expect(offeredOptions(allWallets, ['googlePay', 'card'], everything, () => true)).toEqual(['googlePay', 'card']);
    expect(offeredOptions(allWallets, PAYMENT_OPTIONS, { ...everything, paypal: false, card: false }, () => true)).toEqual([
      'paypalCredit',
      'venmo',
      'applePay',
      'googlePay',
    ]);
    const noApplePay = (option: PaymentOptionId) => option !== 'applePay';
    expect(offeredOptions(allWallets, PAYMENT_OPTIONS, everything, noApplePay)).not.toContain('applePay');
  });

  it('drops the card when the gateway supports no card type, and wallets the gateway does not enable', () => {
    const cardsOff = gatewayConfiguration({ supportedCardTypes: [] });
    expect(offeredOptions(cardsOff, PAYMENT_OPTIONS, everything, () => true)).toEqual([]);
    expect(offeredOptions(gatewayConfiguration({ payWithVenmo: true }), PAYMENT_OPTIONS, everything, () => true)).toEqual([
      'card',
      'venmo',
    ]);
  });
});
