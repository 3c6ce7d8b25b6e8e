import { describe, expect, it } from 'vitest';
import type { CheckoutEvent } from '../../machine/checkout.types.ts';
import { gatewayConfiguration, visa } from '../../testing/fixtures.ts';
import { renderWith, stateAfter } from '../../testing/render.tsx';
import { Sheet } from '../sheet/sheet.tsx';

const config = gatewayConfiguration({ challenges: ['cvv', 'postal_code'], supportedCardTypes: ['Visa', 'MasterCard'] });

function render(...events: CheckoutEvent[]): string {
  const state = stateAfter([
    { type: 'CONFIG_LOADED', config, options: ['card'] },
    { type: 'OPTION_READY', option: 'card' },
    ...events,
  ]);
  return renderWith(state, <Sheet />);
}

describe('card view markup', () => {
  it('labels every field and marks the optional name', () => {
    const html = render();
    for (const label of ['Cardholder name', 'Card number', 'Expiration date', 'CVV', 'Postal code'])
      expect(html).toContain(`>${label}`);
    expect(html).toContain('(optional)');
    expect(html).toMatch(/<p id="[^"]+-number-error" class="kassa-field__error" aria-live="polite">/);
  });

  it('shows only the brands the gateway supports, and the detected one inside the number field', () => {
    const html = render({ type: 'CARD_TYPE_CHANGED', cards: [visa] });
    expect(html).toContain('aria-label="Visa"');
    expect(html).toContain('aria-label="Mastercard"');
    expect(html).not.toContain('aria-label="American Express"');
    expect(html).toMatch(/data-brand="visa" data-active=""/);
    expect(html).toMatch(
      /<div class="kassa-field__box" data-brand="visa">.*<span class="kassa-field__brand"><svg[^>]*aria-label="Visa"/,
    );
    expect(html).toContain('CVV (3 digits)');
  });

  it("draws each brand's mark inside its labelled frame once the marks' chunk has arrived", async () => {
    const frame = '<rect width="40" height="26" rx="3" fill="#fff" stroke="#d0d4dc"></rect>';
    await import('../../brands/brand-marks.tsx');
    // A render asks for the marks (already here, the answer still a promise); the next one draws them.
    render();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const html = render();
    expect(html).toContain(
      `aria-label="Mastercard" focusable="false">${frame}<!--$--><circle cx="16" cy="13" r="7" fill="#eb001b">`,
    );
    expect(html).toContain(`aria-label="Visa" focusable="false">${frame}<!--$--><text`);
  });

  it('puts the field message as text in the element the frame is described by, and the sheet message in the alert', () => {
    const html = render({ type: 'SUBMIT' }, { type: 'FIELDS_SETTLED' });
    expect(html).toMatch(/-number-error" class="kassa-field__error" aria-live="polite">Enter a card number\.<\/p>/);
    expect(html).toMatch(/role="alert" tabindex="-1">Check your entries and try again\.<\/p>/);
    expect(html).not.toMatch(/\sstyle=/);
  });

  it('has no "Choose another way to pay" toggle when the card is the only way to pay', () => {
    expect(render()).not.toContain('Choose another way to pay');
  });
});
