import { describe, expect, it, vi } from 'vitest';
import { en, type Catalogue, type MessageKey } from './catalogue.ts';
import { enOnDemand } from './catalogue-on-demand.ts';
import { createTranslator, directionOf, loadCatalogue, resolveLocale, SUPPORTED_LOCALES } from './i18n.ts';
import { translationsFrom } from '../runtime/options.ts';
import { WALLET_MESSAGES, walletText } from './wallet-messages.ts';
import type { CheckoutOptions } from '../runtime/options.ts';
import { FIELD_ORDER } from '../machine/checkout.types.ts';

/** Every English sentence: the card view's and those loaded with the parts. */
const english: Catalogue = { ...en, ...enOnDemand };

describe('message catalogue', () => {
  it('has a non-empty English message for every key but the deliberately blank placeholders', () => {
    for (const [key, message] of Object.entries(english)) {
      if (key.endsWith('.placeholder')) continue;
      expect(message.trim(), key).not.toBe('');
    }
  });

  it('has a label, an empty message and an invalid message for every card field', () => {
    const keys = new Set(Object.keys(english));
    for (const field of FIELD_ORDER) {
      for (const suffix of ['label', 'empty', 'invalid'])
        expect(keys.has(`field.${field}.${suffix}`), `${field}.${suffix}`).toBe(true);
    }
  });

  it('has every sentence of the specification section 8, word for word', () => {
    const messages = new Set<string>(Object.values(english));
    for (const sentence of [
      'Something went wrong during 3D Secure authentication. Please try again.',
      'All payment options failed to load.',
      'This credit card already exists as a saved payment method.',
      'Check your entries and try again.',
      'Network error. Please try again.',
      'Credit card verification failed.',
      'This card type is not supported. Please try another card.',
      'Unable to delete payment method, try again.',
      'Credit card is invalid',
      'Use the PayPal button to continue with your payment.',
      'This card number is not valid.',
      'Choose a way to pay',
      'Other ways to pay',
      'Choose another way to pay',
    ]) {
      expect(messages.has(sentence), sentence).toBe(true);
    }
  });

  it('fills named parameters', () => {
    const t = createTranslator(english);
    expect(t('sheet.cardSelected', { brand: 'Visa', lastFour: '1111' })).toBe('Visa ending in 1111 is ready to pay.');
  });
});

/** Names that are the same in every language: the wallets' trademarks and the digits-only hints. */
const SAME_IN_EVERY_LANGUAGE = new Set<MessageKey>([
  'option.paypal',
  'option.paypalCredit',
  'option.venmo',
  'option.applePay',
  'option.googlePay',
  'field.number.placeholder',
  'field.cvv.placeholder',
  'field.cvv.placeholder4',
  'field.postalCode.placeholder',
]);

/** Words a language borrows from English as they are (checked by hand, listed so that nothing else slips through). */
const BORROWED: Readonly<Record<string, readonly MessageKey[]>> = {
  de: ['field.optional'],
  es: ['field.cvv.label'],
  ja: ['field.expirationDate.placeholder'],
  ar: ['field.expirationDate.placeholder'],
};

describe('locales', () => {
  it('offers English and five translations, one of them right-to-left', () => {
    expect(SUPPORTED_LOCALES).toEqual(['en', 'de', 'fr', 'es', 'ja', 'ar']);
    expect(SUPPORTED_LOCALES.filter((locale) => directionOf(locale) === 'rtl')).toEqual(['ar']);
  });

  it('picks a locale by the whole BCP 47 tag, then by its language, then English', () => {
    expect(resolveLocale('de')).toBe('de');
    expect(resolveLocale('de-CH')).toBe('de');
    expect(resolveLocale('fr_CA')).toBe('fr');
    expect(resolveLocale('AR-eg')).toBe('ar');
    expect(resolveLocale(' ja-JP ')).toBe('ja');
    expect(resolveLocale('es-419')).toBe('es');
    expect(resolveLocale('zh-Hans-CN')).toBe('en');
    expect(resolveLocale('pt-BR')).toBe('en');
    expect(resolveLocale('')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
  });

  it('bundles English only: every other catalogue is imported when first asked for', async () => {
    // A first import of the module, as a page has: another file of this worker may have loaded catalogues and parts.
    vi.resetModules();
    const i18n = await import('./i18n.ts');
    expect(i18n.loadedCatalogue('en')).toEqual(en);
    expect(i18n.loadedCatalogue('ja')).toBeUndefined();
    const ja = await i18n.loadCatalogue('ja');
    expect(ja['field.number.label']).toBe('カード番号');
    expect(i18n.loadedCatalogue('ja')).toBe(ja);
  });

  for (const locale of SUPPORTED_LOCALES.filter((l) => l !== 'en')) {
    it(`translates every message into '${locale}', keeping the placeholders`, async () => {
      const catalogue = await loadCatalogue(locale);
      expect(Object.keys(catalogue).sort()).toEqual(Object.keys(english).sort());
      for (const key of Object.keys(english) as MessageKey[]) {
        const [source, translated = ''] = [english[key], catalogue[key]];
        if (source !== '') expect(translated.trim(), key).not.toBe('');
        if (!SAME_IN_EVERY_LANGUAGE.has(key) && !BORROWED[locale]?.includes(key))
          expect(translated, `${locale} ${key}`).not.toBe(source);
        const params = (text: string): string[] => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1] ?? '').sort();
        expect(params(translated), key).toEqual(params(source));
      }
    });
  }
});

describe('merchant overrides', () => {
  it('win over the locale for the keys given, and fill parameters the same way', async () => {
    const t = createTranslator(await loadCatalogue('fr'), {
      'error.checkEntries': 'Merci de vérifier la carte.',
      'sheet.cardSelected': '{brand} ···· {lastFour}',
    });
    expect(t('error.checkEntries')).toBe('Merci de vérifier la carte.');
    expect(t('sheet.cardSelected', { brand: 'Visa', lastFour: '1111' })).toBe('Visa ···· 1111');
    expect(t('error.network')).toBe('Erreur réseau. Veuillez réessayer.');
  });

  it("reach the wallet views' own sentences too (wallet.*), in any locale, their placeholders filled", async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    const overrides = translationsFrom({
      translations: { 'wallet.button': 'Jetzt mit {wallet} zahlen', 'wallet.readyToPay': '{account} über {wallet}' },
    });
    expect(overrides).toEqual({ 'wallet.button': 'Jetzt mit {wallet} zahlen', 'wallet.readyToPay': '{account} über {wallet}' });
    const t = createTranslator(await loadCatalogue('de'), overrides);
    expect(walletText(t, 'de', 'button', 'PayPal')).toBe('Jetzt mit PayPal zahlen');
    expect(walletText(t, 'de', 'readyToPay', 'PayPal', 'shopper@paypal.example')).toBe('shopper@paypal.example über PayPal');
    // The others stay the locale's.
    expect(walletText(t, 'de', 'failed', 'PayPal')).toBe(WALLET_MESSAGES.de.failed);
    expect(walletText(createTranslator(), 'en', 'button', 'Venmo')).toBe('Pay with Venmo');
    expect(log).not.toHaveBeenCalled();
    log.mockRestore();
  });

  it('say once of an unknown key and of a value that is not text, and drop that value', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {});
    // As a JavaScript caller could pass them, past the types; two keys of the sentences loaded with the parts.
    const given = {
      translations: {
        'error.network': 'Offline?',
        'error.checkEntries': 'Look again.',
        'error.nope': 'x',
        'field.number.label': 42,
        'methods.edit': false,
      },
    } as unknown as CheckoutOptions;
    // Text for an unknown key is kept, and shows nowhere.
    const kept = { 'error.network': 'Offline?', 'error.checkEntries': 'Look again.', 'error.nope': 'x' };
    expect(translationsFrom(given)).toEqual(kept);
    expect(translationsFrom(given)).toEqual(kept);
    expect(translationsFrom({ translations: 'Hello' } as unknown as CheckoutOptions)).toEqual({});
    // The sentences are imported on demand (runtime/option-problems.ts): they arrive once that import has settled, in
    // order. Waited for as an import, not for a time: a cold import under load took longer than vi.waitFor's second.
    await vi.dynamicImportSettled();
    expect(log.mock.calls.map(([line]) => String(line))).toEqual([
      "[kassa/checkout] options.translations has an unknown key 'error.nope'; the keys are those of the English catalogue, and wallet.* for the wallet views.",
      "[kassa/checkout] options.translations['field.number.label'] must be a string, not 42.",
      "[kassa/checkout] options.translations['methods.edit'] must be a string, not false.",
      '[kassa/checkout] options.translations must be an object of message keys to text, not "Hello".',
    ]);
    log.mockRestore();
  });
});
