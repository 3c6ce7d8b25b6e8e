import { afterEach, describe, expect, it, vi } from 'vitest';
import { inTime, OPTION_LOAD_TIMEOUT_MS } from './in-time.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('inTime', () => {
  it('passes an outcome in time on and leaves no timer running after it, resolved or rejected', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    await expect(inTime(Promise.resolve('view'))).resolves.toBe('view');
    await expect(inTime(Promise.reject(new Error('503')))).rejects.toThrow('503');
    expect(vi.getTimerCount()).toBe(0);
  });

  it('rejects at the limit a promise that never settles', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const outcome = vi.fn();
    inTime(new Promise<never>(() => {})).catch(outcome);
    await vi.advanceTimersByTimeAsync(OPTION_LOAD_TIMEOUT_MS - 1);
    expect(outcome).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toHaveBeenCalledWith(new Error('timed out'));
  });
});
