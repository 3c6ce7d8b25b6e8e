// A wallet's view drawn as on the server, with the merchant's own wording for its sentences (options.translations
// keyed `wallet.*`): the button's name and the hint are the merchant's, the rest the locale's.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTranslator } from '../../i18n/i18n.ts';
import { translationsFrom } from '../../runtime/options.ts';
import { gatewayConfiguration } from '../../testing/fixtures.ts';
import { stateAfter } from '../../testing/render.tsx';
import type { ProviderClient } from '../../provider/provider.ts';
import { CheckoutContext } from '../checkout-context.ts';
import { walletView } from './views.tsx';

describe('a wallet view', () => {
  it("names its button and gives its hint in the merchant's words when options.translations has them", () => {
    const View = walletView({
      option: 'paypal',
      config: gatewayConfiguration(),
      options: { amount: '12.00' },
      provider: {} as ProviderClient,
      report: () => {},
      signal: new AbortController().signal,
    });
    const overrides = translationsFrom({
      translations: { 'wallet.button': 'Checkout with {wallet}', 'wallet.hint': 'Approve in {wallet}.' },
    });
    const html = renderToString(
      <CheckoutContext.Provider
        value={{
          state: stateAfter([]),
          runtime: null,
          t: createTranslator(undefined, overrides),
          headingId: 'h',
          locale: 'en',
          direction: 'ltr',
        }}
      >
        <View />
      </CheckoutContext.Provider>,
    );
    expect(html).toContain('aria-label="Checkout with PayPal"');
    expect(html).toContain('Approve in PayPal.');
  });
});
