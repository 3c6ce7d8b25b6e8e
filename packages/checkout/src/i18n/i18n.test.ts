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

  it('uses the specification sentences verbatim', () => {
    expect(en['error.checkEntries']).toBe('Check your entries and try again.');
    expect(en['error.network']).toBe('Network error. Please try again.');
    expect(en['field.number.invalid']).toBe('This card number is not valid.');
    expect(en['field.number.unsupported']).toBe('This card type is not supported. Please try another card.');
    expect(en['error.cardInvalid']).toBe('Credit card is invalid');
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
