import type { Collection } from '../store/store.ts';

/**
 * A collection that tells `onSet` of every record stored in it. The gateway's jobs (settlement, recurring billing)
 * learn this way of each transaction submitted for settlement and each subscription saved, whichever operation made
 * the change, without every operation having to remember to tell them.
 */
export function watchCollection<T>(records: Collection<T>, onSet: (value: T) => void): Collection<T> {
  return {
    get: (id) => records.get(id),
    has: (id) => records.has(id),
    delete: (id) => records.delete(id),
    discard: (id) => records.discard(id),
    inOrder: () => records.inOrder(),
    withKey: (name, value) => records.withKey(name, value),
    byKey: (name, range) => records.byKey(name, range),
    set: (id, value) => {
      records.set(id, value);
      onSet(value);
    },
  };
}
