// A wallet's view drawn as on the server, with the merchant's own wording for its sentences (options.translations
// keyed `wallet.*`): the button's name and the hint are the merchant's, the rest the locale's.
import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { createTranslator, SUPPORTED_LOCALES, type Locale } from '../../i18n/i18n.ts';
import { WALLET_MESSAGES } from '../../i18n/wallet-messages.ts';
import type { WalletOptionId } from '../../machine/payment-options.ts';
import { translationsFrom } from '../../runtime/options.ts';
import { gatewayConfiguration } from '../../testing/fixtures.ts';
import { stateAfter } from '../../testing/render.tsx';
import type { ProviderClient } from '../../provider/provider.ts';
import { CheckoutContext } from '../checkout-context.ts';
import { walletView } from './views.tsx';

/** A wallet's view as the server draws it, in `locale`, with the merchant's `translations`. */
function render(
  option: WalletOptionId,
  locale: Locale = 'en',
  translations: Record<string, string> = {},
  options: Record<string, unknown> = { amount: '12.00' },
): string {
  const View = walletView({
    option,
    config: gatewayConfiguration(),
    options,
    provider: {} as ProviderClient,
    report: () => {},
    signal: new AbortController().signal,
  });
  // React escapes the apostrophe (French); the sentences are compared as the shopper reads them.
  const html = renderToString(
    <CheckoutContext.Provider
      value={{
        state: stateAfter([]),
        runtime: null,
        t: createTranslator(undefined, translationsFrom({ translations })),
        headingId: 'h',
        locale,
        direction: 'ltr',
      }}
    >
      <View />
    </CheckoutContext.Provider>,
  );
  return html.replaceAll('&#x27;', "'");
}

describe('a wallet view', () => {
  it("names its button and gives its hint in the merchant's words when options.translations has them", () => {
    const html = render('paypal', 'en', { 'wallet.button': 'Checkout with {wallet}', 'wallet.hint': 'Approve in {wallet}.' });
    expect(html).toContain('aria-label="Checkout with PayPal"');
    expect(html).toContain('Approve in PayPal.');
  });

  it.each(SUPPORTED_LOCALES)(
    '%s: Apple Pay and Google Pay hint at their payment sheet, not a window of their own (PayPal keeps the window)',
    (locale) => {
      const messages = WALLET_MESSAGES[locale];
      expect(messages.sheetHint).not.toBe(messages.hint);
      for (const option of ['applePay', 'googlePay'] as const) {
        const html = render(option, locale);
        const wallet = option === 'applePay' ? 'Apple Pay' : 'Google Pay';
        expect(html).toContain(messages.sheetHint.replace('{wallet}', wallet));
        expect(html).not.toContain(messages.hint.replace('{wallet}', wallet));
      }
      expect(render('paypal', locale)).toContain(messages.hint.replace('{wallet}', 'PayPal'));
    },
  );

  it('renders on the server for every wallet (Venmo asks the screen whether it is a phone only in a browser)', () => {
    for (const option of ['paypal', 'paypalCredit', 'venmo', 'applePay', 'googlePay'] as const)
      expect(render(option)).toContain(`class="kassa-wallet__button kassa-wallet__button--${option}"`);
  });

  it.each(SUPPORTED_LOCALES)(
    '%s: a wallet with offerSave offers "Save {wallet} for my next payments", checked; without it, or in the vault flow, nothing',
    (locale) => {
      const save = WALLET_MESSAGES[locale].saveForLater;
      const html = render('googlePay', locale, {}, { amount: '12.00', offerSave: true });
      expect(html).toMatch(/<label class="kassa-save-card"><input type="checkbox" checked=""\/>/);
      expect(html).toContain(save.replace('{wallet}', 'Google Pay'));
      expect(render('googlePay', locale)).not.toContain('type="checkbox"');
      expect(render('paypal', locale, {}, { flow: 'vault', offerSave: true })).not.toContain('type="checkbox"');
    },
  );

  it.each(SUPPORTED_LOCALES)(
    "%s: PayPal's vault flow (options.paypal.flow 'vault') offers to save PayPal, not to pay",
    (locale) => {
      const messages = WALLET_MESSAGES[locale];
      const html = render('paypal', locale, {}, { flow: 'vault' });
      expect(html).toContain(`aria-label="${messages.vaultButton.replace('{wallet}', 'PayPal')}"`);
      expect(html).toContain(messages.vaultHint.replaceAll('{wallet}', 'PayPal'));
      expect(html).not.toContain(messages.hint.replace('{wallet}', 'PayPal'));
    },
  );
});
