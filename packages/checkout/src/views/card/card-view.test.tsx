import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../i18n/i18n.ts';
import { initialState, transition } from '../../machine/checkout.machine.ts';
import type { CheckoutEvent, CheckoutState } from '../../machine/checkout.types.ts';
import type { ProviderClient } from '../../provider/provider.ts';
import { CheckoutRuntime } from '../../runtime/checkout-runtime.ts';
import { gatewayConfiguration, visa } from '../../testing/fixtures.ts';
import { CheckoutContext } from '../checkout-context.ts';
import { CardView } from './card-view.tsx';

const config = gatewayConfiguration({ challenges: ['cvv', 'postal_code'], supportedCardTypes: ['Visa', 'MasterCard'] });

const t = createTranslator('en');
const unusedProvider = {} as ProviderClient;

function render(...events: CheckoutEvent[]): string {
  let state: CheckoutState = initialState({ cardholderName: 'optional', clearFieldsAfterTokenization: true });
  for (const event of [{ type: 'CONFIG_LOADED', config } as const, { type: 'FRAMES_READY' } as const, ...events]) {
    state = transition(state, event).state;
  }
  const runtime = new CheckoutRuntime({
    authorization: '',
    settings: state.settings,
    translate: t,
    callbacks: () => ({}),
    provider: unusedProvider,
  });
  return renderToString(
    <CheckoutContext.Provider value={{ state, runtime, t }}>
      <CardView />
    </CheckoutContext.Provider>,
  );
}

describe('card view markup', () => {
  it('labels every field and marks the optional name', () => {
    const html = render();
    for (const label of ['Cardholder name', 'Card number', 'Expiration date', 'CVV', 'Postal code']) expect(html).toContain(`>${label}`);
    expect(html).toContain('(optional)');
    expect(html).toMatch(/<p id="[^"]+-number-error" class="kassa-field__error" aria-live="polite">/);
  });

  it('shows only the brands the gateway supports and highlights the detected one', () => {
    const html = render({ type: 'CARD_TYPE_CHANGED', cards: [visa] });
    expect(html).toContain('aria-label="Visa"');
    expect(html).toContain('aria-label="Mastercard"');
    expect(html).not.toContain('aria-label="American Express"');
    expect(html).toMatch(/data-brand="visa" data-active=""/);
    expect(html).toContain('CVV (3 digits)');
  });

  it('puts the field message as text in the element the frame is described by', () => {
    const html = render({ type: 'SUBMIT' });
    expect(html).toMatch(/-number-error" class="kassa-field__error" aria-live="polite">Enter a card number\.<\/p>/);
    expect(html).not.toMatch(/\sstyle=/);
  });
});
