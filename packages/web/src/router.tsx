import { useSyncExternalStore, type MouseEvent, type ReactNode } from 'react';

// A few routes do not justify a routing library: the History API and one subscription are enough.
const listeners = new Set<() => void>();

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function navigate(path: string, { replace = false } = {}): void {
  if (replace) window.history.replaceState(null, '', path);
  else window.history.pushState(null, '', path);
  window.scrollTo(0, 0);
  for (const listener of listeners) listener();
}

export function usePath(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.pathname,
    () => '/',
  );
}

/** The page's query string (`?status=declined`), which lists keep their filters in so Back and links restore them. */
export function useSearch(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.search,
    () => '',
  );
}

export function Link({
  to,
  children,
  className,
  label,
  current,
}: {
  to: string;
  children: ReactNode;
  className?: string;
  /** An accessible name when the visible content does not say it (a logo). */
  label?: string;
  /** `page` on the navigation link of the page being shown. */
  current?: 'page';
}) {
  function onClick(event: MouseEvent<HTMLAnchorElement>): void {
    // Let the browser handle new-tab and modified clicks.
    if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    event.preventDefault();
    navigate(to);
  }
  return (
    <a href={to} onClick={onClick} className={className} aria-label={label} aria-current={current}>
      {children}
    </a>
  );
}

/** The sign-in page, bringing the shopper back to `returnTo` afterwards (the checkout of an order, above all). */
export function signInPath(returnTo: string): string {
  return returnTo === '/' || returnTo.startsWith('/sign-') ? '/sign-in' : `/sign-in?return=${encodeURIComponent(returnTo)}`;
}

/**
 * Where to go back to after signing in: a path of this site from `?return=`, else the shop. Anything that could
 * leave the site (`//host`, `/\host`, a scheme) is ignored, so the link cannot send a shopper elsewhere.
 */
export function returnPath(search: string): string {
  const wanted = new URLSearchParams(search).get('return');
  if (wanted === null || !wanted.startsWith('/') || wanted.startsWith('//') || wanted.startsWith('/\\')) return '/';
  return wanted;
}

/** Matches `path` against a pattern such as `/checkout/:orderId`; returns the parameters or null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const clean = (value: string) => value.replace(/\/+$/, '') || '/';
  const want = clean(pattern).split('/');
  const have = clean(path).split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const actual = have[index] ?? '';
    if (part.startsWith(':')) params[part.slice(1)] = decodeURIComponent(actual);
    else if (part !== actual) return null;
  }
  return params;
}
