import { describe, expect, it } from 'vitest';
import type { CheckoutEvent } from '../../machine/checkout.types.ts';
import { gatewayConfiguration } from '../../testing/fixtures.ts';
import { renderWith, stateAfter } from '../../testing/render.tsx';
import { Sheet } from './sheet.tsx';

// The option list, the saved methods and the delete confirmation are imported on demand. A server render does not
// wait for them: it shows what a browser shows until the view's code has arrived (no other test of this file renders
// them first, so their code is not there yet).

const loaded: CheckoutEvent = {
  type: 'CONFIG_LOADED',
  config: gatewayConfiguration({ paypalEnabled: true }),
  options: ['card', 'paypal'],
};
const OVERLAY = '<div class="kassa-checkout__loading" role="status">';

describe('a view whose code is on its way', () => {
  it('is covered by the one loading overlay (which hides the heading), not its heading over an empty sheet', () => {
    const ready = stateAfter([loaded, { type: 'OPTION_READY', option: 'card' }, { type: 'OPTION_READY', option: 'paypal' }]);
    expect(ready).toMatchObject({ phase: 'ready', view: 'options' });
    const html = renderWith(ready, <Sheet />);
    expect(html).toContain('>Choose a way to pay</p>');
    expect(html).not.toContain('kassa-options');
    expect(html.split(OVERLAY)).toHaveLength(2);
    expect(html).toContain(
      '<span class="kassa-checkout__spinner" aria-hidden="true"></span><span>Loading the payment form…</span>',
    );

    // Still loading the card form as well: its overlay alone.
    const mounting = stateAfter([loaded]);
    expect(mounting).toMatchObject({ phase: 'mounting', view: 'options' });
    expect(renderWith(mounting, <Sheet />).split(OVERLAY)).toHaveLength(2);
  });
});
