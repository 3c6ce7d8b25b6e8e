// The languages the browser reports, made safe for Intl before any code reads them. Chromium on Linux under LANG=C or
// POSIX reports "en-US@posix", a tag Intl refuses (RangeError: Invalid language tag); uPlot, the dashboard's charts,
// builds an Intl.NumberFormat from navigator.language as its module loads, so such a tag stopped the dashboard's chunk
// and the page stayed blank. A dependency's own reading cannot be caught, so the entry shadows the navigator's values.

/** The web app's own locale (its words are English and it formats with 'en'): what stands in for refused tags. */
export const DEFAULT_LOCALE = 'en';

function isValidTag(tag: string): boolean {
  try {
    return Intl.getCanonicalLocales(tag).length === 1;
  } catch {
    return false;
  }
}

/** The tags Intl accepts, in the browser's order; the default locale when it accepts none. */
export function usableLanguages(tags: readonly string[]): string[] {
  const usable = tags.filter(isValidTag);
  return usable.length > 0 ? usable : [DEFAULT_LOCALE];
}

/**
 * Shadows `navigator.language` and `navigator.languages` (getters of Navigator's prototype) with own values when the
 * browser reported a tag Intl refuses: the language falls back to the default locale, the list keeps the tags Intl
 * accepts. A browser whose tags are all valid is left as it is.
 */
export function steadyBrowserLanguages(navigator: Pick<Navigator, 'language' | 'languages'>): void {
  const { language, languages } = navigator;
  if (isValidTag(language) && languages.every(isValidTag)) return;
  Object.defineProperties(navigator, {
    language: { value: isValidTag(language) ? language : DEFAULT_LOCALE, configurable: true, enumerable: true },
    languages: { value: Object.freeze(usableLanguages(languages)), configurable: true, enumerable: true },
  });
}
