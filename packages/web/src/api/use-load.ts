import { useCallback, useEffect, useRef, useState } from 'react';
import { ApiError } from './client.ts';
import type { Problem } from './types.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; problem: Problem };

/** The problem a failed call carries; anything else is an unexpected error. */
export function problemOf(error: unknown): Problem {
  return error instanceof ApiError ? error.problem : { status: 0, code: 'unexpected_error' };
}

/**
 * Loads data for a page once per key; a late answer for an old key is dropped. `settled`: what `load()` will give,
 * already had, shown from the first render (the same answer is not rendered again when it comes).
 */
export function useLoad<T>(load: () => Promise<T>, key: string, settled?: Loaded<T>): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>(settled ?? { status: 'loading' });
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
  }, [key]);
  return state;
}

/**
 * Loads once, and again on `reload()` after the page changed something: the data shown stays until the new answer
 * comes (no flash of "Loading…", focus stays where it is). A reload that fails keeps the data and rejects.
 */
export function useReloadable<T>(load: () => Promise<T>): { state: Loaded<T>; reload: () => Promise<void> } {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  const latest = useRef(load);
  latest.current = load;
  const mounted = useRef(true);
  const reload = useCallback(async () => {
    const data = await latest.current();
    if (mounted.current) setState({ status: 'ready', data });
  }, []);
  useEffect(() => {
    mounted.current = true;
    reload().catch((error: unknown) => mounted.current && setState({ status: 'failed', problem: problemOf(error) }));
    return () => {
      mounted.current = false;
    };
  }, [reload]);
  return { state, reload };
}
