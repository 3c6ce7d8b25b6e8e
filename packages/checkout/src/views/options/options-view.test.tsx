import { describe, expect, it } from 'vitest';
import type { CheckoutEvent } from '../../machine/checkout.types.ts';
import { gatewayConfiguration, paymentMethodResult } from '../../testing/fixtures.ts';
import { renderWith, stateAfter } from '../../testing/render.tsx';
import { SheetHeader } from '../sheet/sheet-header.tsx';
import { Sheet } from '../sheet/sheet.tsx';
import { connectRoot } from '../../machine/checkout.connect.ts';
import { createTranslator } from '../../i18n/i18n.ts';
import { OptionList } from './options-view.tsx';

const config = gatewayConfiguration({ paypalEnabled: true, payWithVenmo: true });
const loaded: CheckoutEvent = { type: 'CONFIG_LOADED', config, options: ['card', 'paypal', 'venmo'] };
const settled: CheckoutEvent[] = [
  loaded,
  { type: 'OPTION_READY', option: 'card' },
  { type: 'OPTION_READY', option: 'paypal' },
  { type: 'OPTION_FAILED', option: 'venmo' },
];

describe('option list markup', () => {
  it('is a list of buttons labelled by the "Choose a way to pay" heading, a failed option disabled with its note', () => {
    const state = stateAfter(settled);
    const list = renderWith(state, <OptionList />);
    expect(list).toMatch(/^<ul class="kassa-options" aria-labelledby="sheet-heading">/);
    expect(list).toMatch(
      /<button type="button" class="kassa-option" data-option="card"><svg[^>]*aria-hidden="true"[^>]*>.*<\/svg><span class="kassa-option__label">Card<\/span><\/button>/,
    );
    expect(list).toMatch(
      /data-option="venmo" disabled="" aria-describedby="sheet-heading-venmo-note">.*Venmo.*<span id="sheet-heading-venmo-note" class="kassa-option__note">Not available right now<\/span>/,
    );
    const header = renderWith(state, <SheetHeader root={connectRoot(state, createTranslator())} />);
    expect(header).toContain('<p id="sheet-heading" class="kassa-heading" role="heading" aria-level="3">Choose a way to pay</p>');
  });

  it('is headed "Other ways to pay" under saved methods', () => {
    const state = { ...stateAfter(settled), view: 'options' as const, savedMethods: [paymentMethodResult] };
    const header = renderWith(state, <SheetHeader root={connectRoot(state, createTranslator())} />);
    expect(header).toContain('>Other ways to pay</p>');
  });

  it('keeps the card form mounted but hidden behind the list, and shows the toggle on the card view', () => {
    const listHtml = renderWith(stateAfter(settled), <Sheet />);
    expect(listHtml).toMatch(/class="kassa-card" role="group" aria-label="Pay with card"[^>]*hidden=""/);
    expect(listHtml).not.toContain('Choose another way to pay');
    const cardHtml = renderWith(stateAfter([...settled, { type: 'SELECT_OPTION', option: 'card' }]), <Sheet />);
    expect(cardHtml).not.toMatch(/class="kassa-card"[^>]*hidden/);
    expect(cardHtml).toContain('<button type="button" class="kassa-checkout__toggle">Choose another way to pay</button>');
  });

  it('shows "All payment options failed to load." and a retry when every option failed', () => {
    const html = renderWith(
      stateAfter([
        loaded,
        { type: 'OPTION_FAILED', option: 'card' },
        { type: 'OPTION_FAILED', option: 'paypal' },
        { type: 'OPTION_FAILED', option: 'venmo' },
      ]),
      <Sheet />,
    );
    expect(html).toContain('data-state="error"');
    expect(html).toContain('>All payment options failed to load.</p>');
    expect(html).toContain('>Try again</button>');
    expect(html).not.toContain('kassa-card');
  });
});
