import { en, type Catalogue, type MessageKey } from './catalogue.ts';

/** Locales with a complete catalogue. Claim only what is translated (integrators complained of half-English sheets). */
const catalogues = { en } as const satisfies Record<string, Catalogue>;

export type Locale = keyof typeof catalogues;
export const SUPPORTED_LOCALES: readonly Locale[] = Object.keys(catalogues) as Locale[];

export type Translate = (key: MessageKey, params?: Readonly<Record<string, string>>) => string;

function isLocale(value: string): value is Locale {
  return Object.hasOwn(catalogues, value);
}

/** Picks the catalogue for `locale` ("en", "en-GB" -> en); unknown locales fall back to English. */
export function resolveLocale(locale: string | undefined): Locale {
  if (locale === undefined) return 'en';
  if (isLocale(locale)) return locale;
  const language = locale.split(/[-_]/)[0] ?? '';
  return isLocale(language) ? language : 'en';
}

export function createTranslator(locale: Locale): Translate {
  const catalogue: Catalogue = catalogues[locale];
  return (key, params) => {
    const template = catalogue[key];
    if (params === undefined) return template;
    return template.replace(/\{(\w+)\}/g, (whole, name: string) => params[name] ?? whole);
  };
}
