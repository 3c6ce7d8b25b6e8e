import { describe, expect, it } from 'vitest';
import { IdempotencyKeys } from './idempotency.ts';
import type { IdempotencyRecord } from './idempotency.ts';
import { createMemoryStore } from '../store/memory-store.ts';

describe('apiRequestKey', () => {
  const setUp = () => {
    const records = createMemoryStore().collection<IdempotencyRecord>('keys');
    return { keys: new IdempotencyKeys(records), records };
  };

  it('records a key only once its request has finished, and replays a copy of the result', () => {
    const { keys, records } = setUp();
    let runs = 0;
    const first = keys.run('k', { amount: '1.00' }, ['transaction'], () => {
      expect(records.has('k')).toBe(false); // nothing "in progress" is ever visible
      runs += 1;
      return { id: 'a' };
    });
    expect(first).toEqual({ kind: 'fresh', result: { id: 'a' } });
    expect([...records.inOrder()]).toEqual([{ key: 'k', request: '{"amount":"1.00"}', result: { id: 'a' } }]);
    if (first.kind === 'fresh') first.result.id = 'changed'; // the caller changing its copy changes nothing stored
    expect(keys.run('k', { amount: '1.00' }, ['transaction'], () => ({ id: 'b' }))).toEqual({
      kind: 'replayed',
      result: { id: 'a' },
    });
    expect(runs).toBe(1);
  });

  it('refuses the same key with another request (915232)', () => {
    const { keys } = setUp();
    keys.run('k', { amount: '1.00' }, ['transaction'], () => 1);
    expect(keys.run('k', { amount: '2.00' }, ['transaction'], () => 2)).toMatchObject({
      kind: 'conflict',
      error: { attribute: 'api_request_key', code: '915232' },
    });
  });

  it('records nothing when the operation throws, so a retry runs', () => {
    const { keys, records } = setUp();
    expect(() =>
      keys.run('k', {}, ['transaction'], () => {
        throw new Error('boom');
      }),
    ).toThrow('boom');
    expect(records.has('k')).toBe(false);
    expect(keys.run('k', {}, ['transaction'], () => 'ok')).toEqual({ kind: 'fresh', result: 'ok' });
  });
});
