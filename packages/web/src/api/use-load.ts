import { useEffect, useState } from 'react';
import { ApiError } from './client.ts';
import type { Problem } from './types.ts';

export type Loaded<T> = { status: 'loading' } | { status: 'ready'; data: T } | { status: 'failed'; problem: Problem };

/** Loads data for a page once per key; a late answer for an old key is dropped. */
export function useLoad<T>(load: () => Promise<T>, key: string): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ status: 'loading' });
  useEffect(() => {
    let current = true;
    setState({ status: 'loading' });
    load().then(
      (data) => current && setState({ status: 'ready', data }),
      (error: unknown) =>
        current &&
        setState({
          status: 'failed',
          problem: error instanceof ApiError ? error.problem : { status: 0, code: 'unexpected_error' },
        }),
    );
    return () => {
      current = false;
    };
    // `load` is a fresh closure each render; the key says when it really changed.
  }, [key]);
  return state;
}
