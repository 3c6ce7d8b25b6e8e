import { describe, expect, it } from 'vitest';
import { steadyBrowserLanguages, usableLanguages } from './browser-languages.ts';

/** A navigator as browsers make one: its language and languages are getters of the prototype. */
function navigatorReporting(language: string, languages: readonly string[]): Pick<Navigator, 'language' | 'languages'> {
  const prototype = {
    get language() {
      return language;
    },
    get languages() {
      return languages;
    },
  };
  return Object.create(prototype) as Pick<Navigator, 'language' | 'languages'>;
}

describe('usableLanguages', () => {
  it('keeps the tags Intl accepts, in order, and stands the default locale in when none is', () => {
    expect(usableLanguages(['en-US@posix', 'de-CH', 'fr_CA', 'fr'])).toEqual(['de-CH', 'fr']);
    expect(usableLanguages(['en-US@posix'])).toEqual(['en']);
    expect(usableLanguages(['C', ''])).toEqual(['en']);
    expect(usableLanguages([])).toEqual(['en']);
  });
});

describe('steadyBrowserLanguages', () => {
  it('gives a browser reporting en-US@posix (Linux under LANG=C) tags that Intl formats with', () => {
    const navigator = navigatorReporting('en-US@posix', ['en-US@posix']);
    expect(() => new Intl.NumberFormat(navigator.language)).toThrow(RangeError);
    steadyBrowserLanguages(navigator);
    expect(navigator.language).toBe('en');
    expect(navigator.languages).toEqual(['en']);
    // What uPlot does as its module loads (uPlot.esm.js: `new Intl.NumberFormat(navigator.language)`).
    expect(new Intl.NumberFormat(navigator.language).format(1234.5)).toBe('1,234.5');
  });

  it('keeps the valid tags of a list with a refused one, and a valid language as it is', () => {
    const navigator = navigatorReporting('de-DE', ['de-DE', 'de_AT', 'en']);
    steadyBrowserLanguages(navigator);
    expect(navigator.language).toBe('de-DE');
    expect(navigator.languages).toEqual(['de-DE', 'en']);
  });

  it('leaves a browser whose tags are all valid alone', () => {
    const navigator = navigatorReporting('fr-CA', ['fr-CA', 'fr']);
    steadyBrowserLanguages(navigator);
    expect(Object.getOwnPropertyNames(navigator)).toEqual([]);
    expect(navigator.languages).toEqual(['fr-CA', 'fr']);
  });
});
