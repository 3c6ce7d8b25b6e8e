import { describe, expect, it } from 'vitest';
import { en } from './catalogue.ts';
import { createTranslator, resolveLocale, SUPPORTED_LOCALES } from './i18n.ts';
import { FIELD_ORDER } from '../machine/checkout.types.ts';

describe('message catalogue', () => {
  it('has a non-empty English message for every key but the deliberately blank placeholders', () => {
    for (const [key, message] of Object.entries(en)) {
      if (key.endsWith('.placeholder')) continue;
      expect(message.trim(), key).not.toBe('');
    }
  });

  it('has a label, an empty message and an invalid message for every card field', () => {
    const keys = new Set(Object.keys(en));
    for (const field of FIELD_ORDER) {
      for (const suffix of ['label', 'empty', 'invalid']) expect(keys.has(`field.${field}.${suffix}`), `${field}.${suffix}`).toBe(true);
    }
  });

  it('has every sentence of the specification section 8, word for word', () => {
    const messages = new Set<string>(Object.values(en));
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

  it('claims English only and falls back to it', () => {
    expect(SUPPORTED_LOCALES).toEqual(['en']);
    expect(resolveLocale('en-GB')).toBe('en');
    expect(resolveLocale('fr')).toBe('en');
    expect(resolveLocale(undefined)).toBe('en');
  });

  it('fills named parameters', () => {
    const t = createTranslator('en');
    expect(t('sheet.cardSelected', { brand: 'Visa', lastFour: '1111' })).toBe('Visa ending in 1111 is ready to pay.');
  });
});
