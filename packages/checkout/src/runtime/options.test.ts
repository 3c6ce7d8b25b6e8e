import { describe, expect, it, vi } from 'vitest';
import { checkoutSettings } from '../testing/fixtures.ts';
import { settingsFrom, type CheckoutOptions } from './options.ts';

describe('merchant options', () => {
  it('defaults to the card only, an optional name, the gateway reading of the postal code, and keeping the fields', () => {
    expect(settingsFrom(undefined)).toEqual(checkoutSettings());
  });

  it("accepts Kassa's and the provider's cardholder name shapes", () => {
    const name = (options: CheckoutOptions) => settingsFrom(options).cardholderName;
    expect(name({ cardholderName: 'required' })).toBe('required');
    expect(name({ cardholderName: false })).toBe(false);
    expect(name({ cardholderName: true })).toBe('optional');
    expect(name({ cardholderName: { required: true } })).toBe('required');
    expect(name({ cardholderName: { required: false } })).toBe('optional');
    expect(name({ card: { cardholderName: { required: true } } })).toBe('required');
    expect(name({ card: { cardholderName: false }, cardholderName: 'required' })).toBe(false);
  });

  it('reads the postal code setting, the option priority and which options the merchant enabled', () => {
    const settings = settingsFrom({
      postalCode: 'required',
      clearFieldsAfterTokenization: true,
      paymentOptionPriority: ['paypal', 'card'],
      card: false,
      paypal: { flow: 'checkout' },
    });
    expect(settings).toMatchObject({
      postalCode: 'required',
      clearFieldsAfterTokenization: true,
      paymentOptionPriority: ['paypal', 'card'],
      merchantEnabled: { card: false, paypal: true, paypalCredit: false, venmo: false, applePay: false, googlePay: false },
    });
  });

  it('names the fix for a value a JavaScript caller got wrong, and uses the default', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fromJs = JSON.parse(
      '{"cardholderName": "sometimes", "postalCode": "always", "paymentOptionPriority": ["card", "cash"]}',
    ) as CheckoutOptions;
    const settings = settingsFrom(fromJs);
    expect(settings).toMatchObject({ cardholderName: 'optional', postalCode: 'gateway', paymentOptionPriority: ['card'] });
    // The sentences are imported on demand (option-problems.ts): they arrive once that import has settled (waited for
    // as an import: a cold one under load took longer than vi.waitFor's second).
    await vi.dynamicImportSettled();
    expect(errors).toHaveBeenCalledTimes(3);
    expect(errors).toHaveBeenCalledWith(
      expect.stringContaining("must be 'optional', 'required', true, false or { required: boolean }"),
    );
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("options.postalCode must be 'gateway' or 'required'"));
    expect(errors).toHaveBeenCalledWith(expect.stringContaining('using card.'));
    errors.mockRestore();
  });
});

describe('the 3-D Secure option', () => {
  it("reads the provider's shapes: off by default, an amount, or true (the amount comes with each request)", () => {
    expect(settingsFrom({}).threeDSecure).toBe(false);
    expect(settingsFrom({ threeDSecure: { amount: '12.00' } }).threeDSecure).toEqual({ amount: '12.00' });
    expect(settingsFrom({ threeDSecure: true }).threeDSecure).toEqual({ amount: null });
  });

  it('names the fix for an amount that is not a decimal string and waits for the amount of each request', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const fromJs = JSON.parse('{"threeDSecure": {"amount": 1200}}') as CheckoutOptions;
    expect(settingsFrom(fromJs).threeDSecure).toEqual({ amount: null });
    await vi.dynamicImportSettled();
    expect(errors).toHaveBeenCalledWith(expect.stringContaining("options.threeDSecure must be true or { amount: '12.00' }"));
    errors.mockRestore();
  });
});
