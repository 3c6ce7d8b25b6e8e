import { Suspense } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { CheckoutEvent } from '../../machine/checkout.types.ts';
import { createTranslator } from '../../i18n/i18n.ts';
import { gatewayConfiguration } from '../../testing/fixtures.ts';

// The option list, the saved methods and the delete confirmation are imported on demand. A server render does not
// wait for them: it shows what a browser shows until the view's code has arrived (no other test of this file renders
// them first, and the modules are imported afresh, so their code is not there yet even when another file of this
// worker rendered them).
vi.resetModules();
const { renderWith, stateAfter } = await import('../../testing/render.tsx');
const { Sheet } = await import('./sheet.tsx');

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

describe('a view whose download stalls (never ends, never fails)', () => {
  it("ends at the parts' time limit as one that failed: nothing of it is drawn, where it held the sheet for good", async () => {
    const { onDemand } = await import('../on-demand.ts');
    const { prerenderToNodeStream } = await import('react-dom/static');
    const { OPTION_LOAD_TIMEOUT_MS } = await import('../../runtime/in-time.ts');
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const Stalled = onDemand(() => new Promise<never>(() => {}));
      // A server render waits for the view's code: the view's outcome, once it has one.
      let html: string | null = null;
      const { CheckoutContext } = await import('../checkout-context.ts');
      const context = {
        state: stateAfter([]),
        runtime: null,
        t: createTranslator(),
        headingId: 'h',
        locale: 'en',
        direction: 'ltr',
      } as const;
      void prerenderToNodeStream(
        <CheckoutContext.Provider value={context}>
          <Suspense fallback="waiting">
            <Stalled />
          </Suspense>
        </CheckoutContext.Provider>,
      ).then(async ({ prelude }) => {
        html = '';
        for await (const chunk of prelude) html += String(chunk);
      });
      await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
      expect(html).toBeNull();
      await vi.advanceTimersByTimeAsync(1);
      // The boundary's own markers around nothing: not the fallback, nor an error that would take the sheet away.
      await vi.waitFor(() => expect(html).toBe('<!--$--><!--/$-->'));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('a payment on its way', () => {
  const cardReady: CheckoutEvent[] = [
    { type: 'CONFIG_LOADED', config: gatewayConfiguration(), options: ['card'] },
    { type: 'OPTION_READY', option: 'card' },
  ];
  const STATUS = /<p class="kassa-checkout__selected" role="status">([^<]*)<\/p>/;

  it('says so in the polite status line, the card form inert and the sheet not aria-busy (which could hold the news)', () => {
    const ready = stateAfter(cardReady);
    const readyHtml = renderWith(ready, <Sheet />);
    expect(readyHtml.match(STATUS)?.[1]).toBe('');
    expect(readyHtml).toMatch(/<div class="kassa-card" role="group" aria-label="Pay with card">/);

    const paying = stateAfter([...cardReady, { type: 'SUBMIT' }]);
    expect(paying.phase).toBe('submitting');
    const html = renderWith(paying, <Sheet />);
    expect(html).toMatch(/<div class="kassa-checkout"[^>]* data-state="submitting" data-view="card" aria-busy="false">/);
    expect(html.match(STATUS)?.[1]).toBe('Processing your payment…');
    expect(html).toMatch(/<div class="kassa-card" role="group" aria-label="Pay with card" inert="">/);
    // The accepted brands give their place to it (the header's one cell), as to a message.
    expect(html).toContain('<div class="kassa-checkout__heading" data-covered="">');
  });

  it('keeps "Choose another way to pay" in its place, inert (the stylesheet hides it), so what is under the sheet does not move', () => {
    const toggle = '<button type="button" class="kassa-checkout__toggle"';
    const card = [
      loaded,
      { type: 'OPTION_READY', option: 'card' },
      { type: 'OPTION_READY', option: 'paypal' },
      { type: 'SELECT_OPTION', option: 'card' },
    ] satisfies CheckoutEvent[];
    expect(renderWith(stateAfter(card), <Sheet />)).toContain(`${toggle}>Choose another way to pay</button>`);
    const paying = stateAfter([...card, { type: 'SUBMIT' }]);
    expect(paying).toMatchObject({ phase: 'submitting', view: 'card' });
    expect(renderWith(paying, <Sheet />)).toContain(`${toggle} inert="">Choose another way to pay</button>`);
  });

  it('takes the place of a message left from the last try, which comes back if it still holds', () => {
    const failed = stateAfter([...cardReady, { type: 'SUBMIT' }, { type: 'FIELDS_SETTLED' }]);
    expect(renderWith(failed, <Sheet />)).toContain('tabindex="-1">Check your entries and try again.</p>');
    const again = stateAfter([...cardReady, { type: 'SUBMIT' }, { type: 'FIELDS_SETTLED' }, { type: 'SUBMIT' }]);
    expect(again).toMatchObject({ phase: 'submitting', sheetError: 'error.checkEntries' });
    const html = renderWith(again, <Sheet />);
    expect(html).toContain('role="alert" tabindex="-1"></p>');
    expect(html.match(STATUS)?.[1]).toBe('Processing your payment…');
    expect(
      renderWith(
        stateAfter([
          ...cardReady,
          { type: 'SUBMIT' },
          { type: 'FIELDS_SETTLED' },
          { type: 'SUBMIT' },
          { type: 'FIELDS_SETTLED' },
        ]),
        <Sheet />,
      ),
    ).toContain('tabindex="-1">Check your entries and try again.</p>');
  });
});
