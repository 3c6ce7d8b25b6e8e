import { useSyncExternalStore } from 'react';

// Light or dark: the shopper's choice when made (kept in localStorage), else the system's. The theme is an
// attribute on <html> that the CSS custom properties follow (no inline styles: the CSP forbids them).
export type Theme = 'light' | 'dark';

const storageKey = 'kassa.theme';
const listeners = new Set<() => void>();
const systemDark = () => window.matchMedia('(prefers-color-scheme: dark)');

function chosen(): Theme | null {
  const value = window.localStorage.getItem(storageKey);
  return value === 'light' || value === 'dark' ? value : null;
}

function current(): Theme {
  return chosen() ?? (systemDark().matches ? 'dark' : 'light');
}

function apply(): void {
  document.documentElement.dataset.theme = current();
  for (const listener of listeners) listener();
}

/** Sets the theme attribute before the first render and follows the system's setting until the shopper chooses. */
export function startTheme(): void {
  apply();
  systemDark().addEventListener('change', () => {
    if (chosen() === null) apply();
  });
}

export function chooseTheme(theme: Theme): void {
  window.localStorage.setItem(storageKey, theme);
  apply();
}

export function useTheme(): Theme {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    current,
    () => 'light',
  );
}
