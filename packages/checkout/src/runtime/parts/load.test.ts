import { describe, expect, it, vi } from 'vitest';
import { checkoutSettings, gatewayConfiguration, savedMethod } from '../../testing/fixtures.ts';
import { loadParts, partsNeeded } from './load.ts';

describe('the parts a checkout loads on demand', () => {
  const config = gatewayConfiguration({ challenges: ['cvv'], supportedCardTypes: ['Visa'] });

  it('loads none for a card-only checkout of a guest', () => {
    expect(partsNeeded(config, checkoutSettings(), ['card'], [])).toEqual([]);
    // 3-D Secure needs the merchant option AND the gateway.
    expect(partsNeeded(config, checkoutSettings({ threeDSecure: { amount: '1.00' } }), ['card'], [])).toEqual([]);
    expect(partsNeeded({ ...config, threeDSecureEnabled: true }, checkoutSettings(), ['card'], [])).toEqual([]);
  });

  it('loads 3-D Secure, the wallets and the saved methods when the checkout can need them, the other ways with either', () => {
    const secure = { ...config, threeDSecureEnabled: true };
    expect(partsNeeded(secure, checkoutSettings({ threeDSecure: { amount: null } }), ['card'], [])).toEqual(['threeDSecure']);
    expect(partsNeeded(config, checkoutSettings(), ['card', 'paypal'], [])).toEqual(['wallets', 'otherWays']);
    expect(partsNeeded(config, checkoutSettings(), ['card'], [savedMethod({ nonce: 'n' })])).toEqual([
      'savedMethods',
      'otherWays',
    ]);
    // No saved card yet, but one saved while paying is listed with the card under "Other ways to pay".
    expect(partsNeeded(config, checkoutSettings({ vaultCard: true }), ['card'], [])).toEqual(['savedMethods', 'otherWays']);
  });

  it('names 3-D Secure before the saved methods, the order the runtime installs them in', () => {
    const settings = checkoutSettings({ threeDSecure: { amount: null }, vaultCard: true });
    const needed = partsNeeded({ ...config, threeDSecureEnabled: true }, settings, ['card', 'paypal'], []);
    expect(needed).toEqual(['threeDSecure', 'wallets', 'savedMethods', 'otherWays']);
  });

  it('adds the English sentences the parts show, which the card view does not carry, before a part is there', async () => {
    // The English sentences are added once per module instance, by the first part loaded: a first import of the
    // modules, as a page has (another file of this worker may have loaded parts).
    vi.resetModules();
    const { createTranslator } = await import('../../i18n/i18n.ts');
    const { loadParts, loadPayment } = await import('./load.ts');
    const t = createTranslator();
    // Until then such a key has no English; none is shown before its part is installed.
    expect(t('error.checkEntries')).toBeUndefined();
    // The option list, its toggle and "Save card" show only beside a part: a wallet offered, saved methods, vaultCard.
    expect(t('sheet.chooseWayToPay')).toBeUndefined();
    expect(t('option.paypal')).toBeUndefined();
    await loadParts([]);
    expect(t('methods.edit')).toBeUndefined();
    await loadPayment();
    expect(t('error.checkEntries')).toBe('Check your entries and try again.');
    expect(t('methods.card', { brand: 'Visa', lastFour: '1111' })).toBe('Visa ending in 1111');
    expect(t('sheet.chooseWayToPay')).toBe('Choose a way to pay');
    expect(t('option.paypal')).toBe('PayPal');
  });

  it("brings the fields' messages with the typing part, which the card view does not carry before a card can be typed", async () => {
    vi.resetModules();
    const { createTranslator } = await import('../../i18n/i18n.ts');
    const { loadTyping } = await import('./load.ts');
    const t = createTranslator();
    expect(t('field.number.label')).toBe('Card number');
    expect(t('field.number.invalid')).toBeUndefined();
    const typing = await loadTyping();
    expect(t('field.number.invalid')).toBe('This card number is not valid.');
    expect(t('field.cvv.empty')).toBe('Enter the security code.');
    expect(Object.keys(typing.machine.actions)).toEqual(['updateField', 'forgetPendingBlur', 'setCards']);
  });

  it("imports each part with its machine part's guards and actions", async () => {
    const [saved, secure, wallets, otherWays] = await loadParts(['savedMethods', 'threeDSecure', 'wallets', 'otherWays']);
    expect(Object.keys(saved?.machine.actions ?? {})).toContain('applyDeleted');
    expect(Object.keys(secure?.machine.guards ?? {})).toContain('needsThreeDSecure');
    expect(Object.keys(wallets?.machine.actions ?? {})).toContain('resolveWalletMethod');
    expect(Object.keys(otherWays?.machine.actions ?? {})).toEqual(['openOption', 'openOptionList']);
  });
});
