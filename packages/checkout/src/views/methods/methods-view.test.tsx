import { describe, expect, it } from 'vitest';
import type { CheckoutEvent, CheckoutState } from '../../machine/checkout.types.ts';
import { checkoutSettings, gatewayConfiguration, paymentMethodResult, savedMethod } from '../../testing/fixtures.ts';
import { renderWith, stateAfter } from '../../testing/render.tsx';
import { DeleteConfirmation } from '../delete-confirmation/delete-confirmation.tsx';
import { MethodsHeader, MethodsView } from './methods-view.tsx';

const details = paymentMethodResult.details;
const visa = savedMethod({
  nonce: 'n-visa',
  default: true,
  details: { ...details, cardType: 'Visa', lastFour: '1881', expirationMonth: '12', expirationYear: '2029' },
});
const amex = savedMethod({
  nonce: 'n-amex',
  hasSubscription: true,
  details: { ...details, cardType: 'American Express', lastFour: '0005' },
});
const loaded: CheckoutEvent[] = [
  { type: 'CONFIG_LOADED', config: gatewayConfiguration(), options: ['card'], savedMethods: [visa, amex] },
  { type: 'OPTION_READY', option: 'card' },
];
const settings = checkoutSettings({ vaultManager: true });

/** The saved methods as the sheet draws them: their heading and Edit / Done in its header row, then the list. */
const methods = (state: CheckoutState): string =>
  renderWith(
    state,
    <>
      <MethodsHeader covered={false} />
      <MethodsView />
    </>,
  );

describe('saved methods markup', () => {
  it("draws the heading and Edit for the sheet's header row, the list without them: a message covers the heading, not Edit", () => {
    const state = stateAfter(loaded, settings);
    const header = renderWith(state, <MethodsHeader covered />);
    expect(header).toMatch(
      /^<div class="kassa-checkout__heading" data-covered=""><p id="sheet-heading" class="kassa-heading" role="heading" aria-level="3">Paying with Card<\/p><\/div><button type="button" class="kassa-methods__edit">Edit<\/button>$/,
    );
    expect(renderWith(state, <MethodsHeader covered={false} />)).toContain('<div class="kassa-checkout__heading"><p');
    const list = renderWith(state, <MethodsView />);
    expect(list).not.toContain('Paying with Card');
    expect(list).not.toContain('>Edit</button>');
  });

  it('is a radio group headed "Paying with Card", the default checked, with Edit and the other ways to pay under it', () => {
    const html = methods(stateAfter(loaded, settings));
    expect(html).toContain('role="heading" aria-level="3">Paying with Card</p>');
    expect(html).toMatch(/<div class="kassa-methods__list" role="radiogroup" aria-labelledby="sheet-heading">/);
    const radio = (nonce: string): string =>
      html.match(new RegExp(`<input type="radio"[^>]*value="${nonce}"[^>]*/?>`))?.[0] ?? '';
    expect(radio('n-visa')).toContain('checked=""');
    expect(radio('n-amex')).not.toBe('');
    expect(radio('n-amex')).not.toContain('checked=""');
    expect(html).toContain('Visa ending in 1881');
    expect(html).toContain('Expires 12/29');
    expect(html).toContain('>Edit</button>');
    expect(html).toContain('>Other ways to pay</p>');
  });

  it('reads "Choose a saved card" with nothing chosen, and has no Edit button without the vault manager', () => {
    const html = methods(stateAfter(loaded, checkoutSettings({ preselectVaultedPaymentMethod: false })));
    expect(html).toContain('>Choose a saved card</p>');
    expect(html).not.toContain('checked=""');
    expect(html).not.toContain('>Edit</button>');
  });

  it('in edit mode, offers a named delete button per method and disables the one a subscription charges, saying why', () => {
    const html = methods(stateAfter([...loaded, { type: 'EDIT_METHODS' }], settings));
    expect(html).toContain('>Edit payment methods</p>');
    expect(html).toContain('>Done</button>');
    expect(html).toMatch(
      /data-nonce="n-visa"(?![^>]*disabled)[^>]*><span class="kassa-method__label"><span class="kassa-visually-hidden">Delete(<!-- -->)? <\/span>Visa ending in 1881<\/span>/,
    );
    expect(html).toMatch(/data-nonce="n-amex" aria-describedby="sheet-heading-n-amex-locked" disabled="">/);
    expect(html).toContain(
      'id="sheet-heading-n-amex-locked" class="kassa-method__locked">Pays for a subscription. Cancel the subscription to delete this card.</p>',
    );
    expect(html).not.toContain('Other ways to pay');
  });

  it('while the chosen saved card is being verified (3-D Secure at Pay), Edit in the header row is inert with the list', () => {
    const paying: CheckoutState = { ...stateAfter(loaded, settings), phase: 'authenticating' };
    expect(renderWith(paying, <MethodsHeader covered={false} />)).toContain(
      '<button type="button" class="kassa-methods__edit" inert="">Edit</button>',
    );
    expect(renderWith(paying, <MethodsView />)).toMatch(/^<div class="kassa-methods" inert="">/);
  });

  it('asks "Delete Visa card ending in 1881?" in a modal dialog with Cancel before Delete', () => {
    const state = stateAfter([...loaded, { type: 'EDIT_METHODS' }, { type: 'ASK_DELETE', nonce: 'n-visa' }], settings);
    const html = renderWith(state, <DeleteConfirmation />);
    expect(html).toMatch(/^<div class="kassa-delete" role="dialog" aria-modal="true" aria-labelledby="([^"]+)"/);
    expect(html).toMatch(/<p id="[^"]+" class="kassa-delete__question">Delete Visa card ending in 1881\?<\/p>/);
    expect(html.indexOf('>Cancel</button>')).toBeLessThan(html.indexOf('>Delete</button>'));
  });

  it('names a saved Mastercard as the card form does ("Mastercard", not the gateway\'s "MasterCard"), in the list and the delete question', () => {
    const mastercard = savedMethod({ nonce: 'n-mc', details: { ...details, cardType: 'MasterCard', lastFour: '4444' } });
    const events: CheckoutEvent[] = [
      { type: 'CONFIG_LOADED', config: gatewayConfiguration(), options: ['card'], savedMethods: [mastercard] },
      { type: 'OPTION_READY', option: 'card' },
    ];
    expect(renderWith(stateAfter(events, settings), <MethodsView />)).toContain('Mastercard ending in 4444');
    const asked = stateAfter([...events, { type: 'EDIT_METHODS' }, { type: 'ASK_DELETE', nonce: 'n-mc' }], settings);
    expect(renderWith(asked, <DeleteConfirmation />)).toContain('Delete Mastercard card ending in 4444?');
  });

  it('lists saved wallets by their way to pay (its mark and name) with the account under it, reads "Paying with PayPal" and asks to delete them by name', () => {
    const paypal = savedMethod({
      nonce: 'n-paypal',
      default: true,
      type: 'PayPalAccount',
      description: '',
      details: { ...details, cardType: '', lastFour: '', email: 'shopper@paypal.example' },
    });
    const applePay = savedMethod({
      nonce: 'n-apple',
      type: 'ApplePayCard',
      description: 'Visa 1111',
      details: { ...details, cardType: 'Apple Pay - Visa', lastFour: '1111' },
    });
    const venmo = savedMethod({
      nonce: 'n-venmo',
      type: 'VenmoAccount',
      description: '',
      details: { ...details, cardType: '', lastFour: '', username: 'venmojoe' },
    });
    const wallets: CheckoutEvent[] = [
      { type: 'CONFIG_LOADED', config: gatewayConfiguration(), options: ['card'], savedMethods: [paypal, applePay, venmo] },
      { type: 'OPTION_READY', option: 'card' },
    ];
    const html = methods(stateAfter(wallets, settings));
    expect(html).toContain('role="heading" aria-level="3">Paying with PayPal</p>');
    for (const [name, account] of [
      ['PayPal', 'shopper@paypal.example'],
      ['Apple Pay', 'Visa 1111'],
      ['Venmo', '@venmojoe'],
    ]) {
      expect(html).toMatch(new RegExp(`class="kassa-method__label">${name}</span>.*?>${account}<`));
    }
    expect(html).not.toContain('ending in');
    // Each beside its way to pay's mark, as in the option list.
    expect([...html.matchAll(/kassa-method__mark" data-option="(\w+)"/g)].map((match) => match[1])).toEqual([
      'paypal',
      'applePay',
      'venmo',
    ]);

    const asking = stateAfter([...wallets, { type: 'EDIT_METHODS' }, { type: 'ASK_DELETE', nonce: 'n-paypal' }], settings);
    expect(renderWith(asking, <DeleteConfirmation />)).toContain('>Delete PayPal (shopper@paypal.example)?</p>');
  });
});
