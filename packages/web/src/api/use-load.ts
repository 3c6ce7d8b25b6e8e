import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './client.ts';
import type { Problem } from './types.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; problem: Problem };

/** A page's load as the page shows it: a failure can be tried again (`retry`: "Loading…", then the load once more). */
export type Retryable<T> = Exclude<Loaded<T>, { status: 'failed' }> | { status: 'failed'; problem: Problem; retry(): void };

/** The problem a failed call carries; anything else is an unexpected error. */
export function problemOf(error: unknown): Problem {
  return error instanceof ApiError ? error.problem : { status: 0, code: 'unexpected_error' };
}

/**
 * Loads data for a page once per key, and again on a failure's `retry()`; a late answer for an old key is dropped.
 * `settled`: what `load()` will give, already had, shown from the first render (the same answer is not rendered again
 * when it comes).
 */
export function useLoad<T>(load: () => Promise<T>, key: string, settled?: Loaded<T>): Retryable<T> {
  const [state, setState] = useState<Loaded<T>>(settled ?? { status: 'loading' });
  const [tries, setTries] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `load` is a fresh closure each render; the key says when it really changed
  useEffect(() => {
    let current = true;
    setState((shown) => (shown === settled ? shown : { status: 'loading' }));
    load().then(
      (data) =>
        current && setState((shown) => (shown.status === 'ready' && shown.data === data ? shown : { status: 'ready', data })),
      (error: unknown) => current && setState({ status: 'failed', problem: problemOf(error) }),
    );
    return () => {
      current = false;
    };
  }, [key, tries]);
  return state.status === 'failed' ? { ...state, retry: () => setTries((count) => count + 1) } : state;
}

/**
 * Loads once, and again on `reload()` after the page changed something: the data shown stays until the new answer
 * comes (no flash of "Loading…", focus stays where it is). A reload that fails keeps the data and rejects.
 */
export function useReloadable<T>(load: () => Promise<T>): { state: Retryable<T>; reload: () => Promise<void> } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const latest = useRef(load);
  latest.current = load;
  const mounted = useRef(true);
  const reload = useCallback(async () => {
    const data = await latest.current();
    if (mounted.current) setState({ status: 'ready', data });
  }, []);
  const first = useCallback(() => {
    reload().catch((error: unknown) => mounted.current && setState({ status: 'failed', problem: problemOf(error) }));
  }, [reload]);
  useEffect(() => {
    mounted.current = true;
    first();
    return () => {
      mounted.current = false;
    };
  }, [first]);
  const retry = (): void => {
    setState({ status: 'loading' });
    first();
  };
  return { state: state.status === 'failed' ? { ...state, retry } : state, reload };
}
