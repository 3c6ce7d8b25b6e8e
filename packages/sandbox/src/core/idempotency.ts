import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';
import type { Collection } from '../store/store.ts';

// apiRequestKey (gateway.md): the same key with the same request returns the original result; the same key with
// a different request fails with 915232. The provider also answers 915233 while the first request with a key is
// still running; that cannot happen here: operations are synchronous and one sandbox process runs one at a time,
// so a key is recorded only once its request has finished.

export interface IdempotencyRecord {
  key: string;
  request: string;
  result: unknown;
}

export type Idempotent<T> = { kind: 'fresh' | 'replayed'; result: T } | { kind: 'conflict'; error: ValidationError };

/** Canonical JSON (sorted keys) so that key order does not make two equal requests differ. */
export function canonicalRequest(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) => {
    if (inner === null || typeof inner !== 'object' || Array.isArray(inner)) return inner;
    const entries = Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries);
  });
}

export class IdempotencyKeys {
  constructor(private readonly records: Collection<IdempotencyRecord>) {}

  run<T>(key: string | null, request: unknown, path: readonly string[], operation: () => T): Idempotent<T> {
    if (key === null) return { kind: 'fresh', result: operation() };
    const canonical = canonicalRequest(request);
    const existing = this.records.get(key);
    if (existing !== undefined) {
      if (existing.request !== canonical) {
        return {
          kind: 'conflict',
          error: validationError(path, 'api_request_key', '915232', 'API request key can be reused only with the same request.'),
        };
      }
      // A copy: the stored result must stay the original even if the caller changes what it receives.
      return { kind: 'replayed', result: structuredClone(existing.result) as T };
    }
    // A crash is not a result: nothing is recorded, so the caller may retry with the same key.
    const result = operation();
    this.records.set(key, { key, request: canonical, result: structuredClone(result) });
    return { kind: 'fresh', result };
  }
}
