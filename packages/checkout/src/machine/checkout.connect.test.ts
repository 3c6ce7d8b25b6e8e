import { describe, expect, it } from 'vitest';
import { createTranslator } from '../i18n/i18n.ts';
import { connectCard, connectRoot } from './checkout.connect.ts';
import { initialState, transition } from './checkout.machine.ts';
import type { CheckoutEvent, CheckoutState } from './checkout.types.ts';
import { amex, gatewayConfiguration } from '../testing/fixtures.ts';

const t = createTranslator('en');
const config = gatewayConfiguration({ challenges: ['cvv'], supportedCardTypes: ['Visa', 'MasterCard', 'American Express'] });

function after(...events: CheckoutEvent[]): CheckoutState {
  return events.reduce((state, event) => transition(state, event).state, initialState({ cardholderName: 'required', clearFieldsAfterTokenization: true }));
}

describe('connect', () => {
  it('reports loading until the frames are ready, and keeps the form inert meanwhile', () => {
    expect(connectRoot(after(), t)).toMatchObject({ dataState: 'loading', busy: true, loadingText: 'Loading the payment form…', showCardView: false });
    const mounting = after({ type: 'CONFIG_LOADED', config });
    expect(connectRoot(mounting, t)).toMatchObject({ dataState: 'loading', showCardView: true });
    expect(connectCard(mounting, t).inert).toBe(true);
    expect(connectRoot(after({ type: 'CONFIG_LOADED', config }, { type: 'FRAMES_READY' }), t)).toMatchObject({
      dataState: 'ready',
      busy: false,
      loadingText: null,
      alert: '',
    });
  });

  it('offers a retry only for failures a retry can fix', () => {
    const network = after({ type: 'CONFIG_FAILED', error: { code: 'network', messageKey: 'error.network', retriable: true } });
    expect(connectRoot(network, t)).toMatchObject({ dataState: 'error', alert: 'Network error. Please try again.', retryText: 'Try again' });
    const bad = after({ type: 'CONFIG_FAILED', error: { code: 'invalid_authorization', messageKey: 'error.invalidAuthorization', retriable: false } });
    expect(connectRoot(bad, t).retryText).toBeNull();
  });

  it('names the CVV length and the detected brand once known', () => {
    const state = after(
      { type: 'CONFIG_LOADED', config },
      { type: 'FRAMES_READY' },
      { type: 'CARD_TYPE_CHANGED', cards: [amex] },
    );
    const card = connectCard(state, t);
    expect(card.fields.map((f) => f.label)).toEqual(['Cardholder name', 'Card number', 'Expiration date', 'CVV (4 digits)']);
    expect(card.fields[0]?.optionalNote).toBeNull();
    expect(card.brands.map((b) => `${b.name}${b.active ? '*' : ''}`)).toEqual(['Visa', 'Mastercard', 'American Express*']);
  });
});
