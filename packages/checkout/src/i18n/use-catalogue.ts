// The catalogue for the chosen locale, imported on demand. Until it has arrived the sheet shows its loading state
// without words rather than in the wrong language; a chunk that cannot load falls back to English.
import { useEffect, useState } from 'react';
import type { Catalogue } from './catalogue.ts';
import { english, loadCatalogue, loadedCatalogue, type Locale } from './i18n.ts';

export interface LocaleCatalogue {
  readonly locale: Locale;
  readonly catalogue: Partial<Catalogue>;
}

export function useCatalogue(locale: Locale): LocaleCatalogue | null {
  const [failed, setFailed] = useState<ReadonlySet<Locale>>(new Set());
  const [, setArrived] = useState<Locale | null>(null);
  const catalogue = loadedCatalogue(locale);

  useEffect(() => {
    if (catalogue !== undefined || failed.has(locale)) return undefined;
    let current = true;
    loadCatalogue(locale).then(
      () => {
        if (current) setArrived(locale);
      },
      (error: unknown) => {
        console.error(`[kassa/checkout] The '${locale}' messages could not be loaded; showing English.`, error);
        if (current) setFailed((previous) => new Set(previous).add(locale));
      },
    );
    return () => {
      current = false;
    };
  }, [locale, catalogue, failed]);

  if (catalogue !== undefined) return { locale, catalogue };
  return failed.has(locale) ? { locale: 'en', catalogue: english } : null;
}
