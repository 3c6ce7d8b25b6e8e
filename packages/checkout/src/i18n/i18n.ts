// Locale resolution, on-demand catalogues and the translator. English is bundled (it is the fallback and the
// reference for the MessageKey union), but for the sentences the card view does not show, which come with the parts
// that show them (catalogue-on-demand.ts); every other catalogue is a chunk of its own, imported only when asked for,
// so the card view's entry chunk carries English alone.
import { inTime } from '../runtime/in-time.ts';
import { en, type Catalogue, type MessageKey } from './catalogue.ts';
import type { WalletTranslationKey } from './wallet-messages.ts';

/** Locales with a complete catalogue. Claim only what is translated (integrators complained of half-English sheets). */
export const SUPPORTED_LOCALES = ['en', 'de', 'fr', 'es', 'ja', 'ar'] as const;
export type Locale = (typeof SUPPORTED_LOCALES)[number];

/** The writing direction of each locale: the sheet is laid out right-to-left for these. */
const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set<Locale>(['ar']);

type OnDemandLocale = Exclude<Locale, 'en'>;

/** Each catalogue's chunk, whose module exports it under the locale's name (a module that does not, does not compile). */
const loaders: { readonly [L in OnDemandLocale]: () => Promise<Record<L, Catalogue>> } = {
  de: () => import('./locales/de.ts'),
  fr: () => import('./locales/fr.ts'),
  es: () => import('./locales/es.ts'),
  ja: () => import('./locales/ja.ts'),
  ar: () => import('./locales/ar.ts'),
};

/**
 * The merchant's own wording for any message, by key (the provider's drop-in calls this option `translations`): the
 * catalogue's keys, and the wallet views' own sentences (`wallet.button`, ...: wallet-messages.ts, loaded with them).
 */
export type Translations = Readonly<Partial<Record<MessageKey | WalletTranslationKey, string>>>;

export type Translate = (key: MessageKey, params?: Readonly<Record<string, string>>) => string;

export type Direction = 'ltr' | 'rtl';

function isLocale(value: string | undefined): value is Locale {
  return (SUPPORTED_LOCALES as readonly (string | undefined)[]).includes(value);
}

/**
 * Picks the catalogue for a BCP 47 tag: the whole tag, then its language subtag ("ar-EG" -> ar, "de-CH" -> de),
 * else English. Tags are case-insensitive and "_" is read as "-" (a common slip: "fr_CA").
 */
export function resolveLocale(tag: string | undefined): Locale {
  if (tag === undefined) return 'en';
  const normalised = tag.trim().replace(/_/g, '-').toLowerCase();
  if (isLocale(normalised)) return normalised;
  const language = normalised.split('-')[0];
  return isLocale(language) ? language : 'en';
}

export function directionOf(locale: Locale): Direction {
  return RIGHT_TO_LEFT.has(locale) ? 'rtl' : 'ltr';
}

/** English as far as it has arrived: the card view's sentences, then the parts' (addEnglish). */
export const english: Partial<Catalogue> = { ...en };

/** Adds the English sentences the parts show (catalogue-on-demand.ts), before a part that shows them is installed. */
export function addEnglish(sentences: Partial<Catalogue>): void {
  Object.assign(english, sentences);
}

const loaded = new Map<Locale, Partial<Catalogue>>([['en', english]]);

/** The catalogue if it is already here (English always is), so a remount or a server render needs no wait. */
export function loadedCatalogue(locale: Locale): Partial<Catalogue> | undefined {
  return loaded.get(locale);
}

/**
 * Imports a catalogue's chunk once; later calls reuse it. A download that stalls fails at the parts' time limit, as one
 * that failed (the sheet then speaks English), not a checkout that never starts.
 */
export async function loadCatalogue(locale: Locale): Promise<Partial<Catalogue>> {
  let catalogue = loaded.get(locale);
  if (catalogue === undefined) {
    catalogue = (await inTime<Partial<Record<Locale, Catalogue>>>(loaders[locale as OnDemandLocale]()))[locale] as Catalogue;
    loaded.set(locale, catalogue);
  }
  return catalogue;
}

/**
 * A translator over a catalogue, the merchant's overrides winning; `{name}` placeholders are filled from params. A
 * wallet view's key (not in the catalogue) gives the merchant's override alone, or undefined (wallet-messages.ts), as
 * does an English sentence of a part not loaded yet (none is shown before its part is).
 */
export function createTranslator(catalogue: Partial<Catalogue> = english, overrides: Translations = {}): Translate {
  return (key, params) => {
    const template = overrides[key] ?? catalogue[key];
    if (template === undefined || params === undefined) return template as string;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  };
}
