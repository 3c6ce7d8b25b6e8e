import type { Collection, Store } from './store.ts';

/** Process-local store: everything disappears when the sandbox stops. */
export function createMemoryStore(): Store {
  const collections = new Map<string, Map<string, unknown>>();
  return {
    collection<T>(name: string): Collection<T> {
      let records = collections.get(name);
      if (!records) {
        records = new Map<string, unknown>();
        collections.set(name, records);
      }
      // Each name is only ever used with one record type (see core/), so the cast is sound.
      return records as Map<string, T>;
    },
    flush() {},
    close() {},
  };
}
