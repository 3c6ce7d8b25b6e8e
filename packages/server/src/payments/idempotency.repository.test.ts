import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ENGINES } from '../testing/engines.ts';
import { IDEMPOTENCY_LOCK_TIMEOUT_MS, IDEMPOTENCY_RETENTION_MS, IdempotencyRepository } from './idempotency.repository.ts';

describe.each(ENGINES.map((make) => [make().name, make] as const))('IdempotencyRepository on %s', (_name, make) => {
  const engine = make();
  let repo: IdempotencyRepository;
  let cleanup: () => Promise<void>;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  beforeEach(async () => {
    const opened = await engine.open();
    repo = new IdempotencyRepository(opened.handle.db);
    cleanup = opened.cleanup;
  });
  afterEach(() => cleanup());

  it('lets exactly one of many concurrent claims acquire a key', async () => {
    const claims = await Promise.all(Array.from({ length: 8 }, () => repo.claim('ses_a', 'k', 'h')));
    expect(claims.filter((c) => c.kind === 'acquired')).toHaveLength(1);
    expect(claims.filter((c) => c.kind === 'in_use')).toHaveLength(7);
  });

  it('replays a completed answer, refuses another request, scopes keys per visitor', async () => {
    await repo.claim('ses_a', 'k', 'h');
    await repo.complete('ses_a', 'k', 201, '{"ok":1}');
    expect(await repo.claim('ses_a', 'k', 'h')).toEqual({ kind: 'replay', status: 201, body: '{"ok":1}' });
    expect(await repo.claim('ses_a', 'k', 'other')).toEqual({ kind: 'reused' });
    expect(await repo.claim('ses_b', 'k', 'other')).toEqual({ kind: 'acquired' });
  });

  it('lets a retry take over a dead holder, and forgets answers after the retention', async () => {
    const start = new Date('2026-01-01T00:00:00Z');
    await repo.claim('ses_a', 'k', 'h', start);
    expect(await repo.claim('ses_a', 'k', 'h', new Date(start.getTime() + 1000))).toEqual({ kind: 'in_use' });
    expect(await repo.claim('ses_a', 'k', 'h', new Date(start.getTime() + IDEMPOTENCY_LOCK_TIMEOUT_MS + 1000))).toEqual({
      kind: 'acquired',
    });
    await repo.complete('ses_a', 'k', 402, '{"code":"payment_declined"}');
    expect((await repo.claim('ses_a', 'k', 'h', new Date(start.getTime() + IDEMPOTENCY_RETENTION_MS - 1000))).kind).toBe(
      'replay',
    );
    expect((await repo.claim('ses_a', 'k', 'other', new Date(start.getTime() + IDEMPOTENCY_RETENTION_MS + 1000))).kind).toBe(
      'acquired',
    );
  });

  it('never forgets an unfinished key: it still pins its attempt to its nonce', async () => {
    const start = new Date('2026-01-01T00:00:00Z');
    await repo.claim('ses_a', 'pinned', 'h', start);
    await repo.unlock('ses_a', 'pinned');
    const muchLater = new Date(start.getTime() + 10 * IDEMPOTENCY_RETENTION_MS);
    expect((await repo.claim('ses_a', 'pinned', 'other', muchLater)).kind).toBe('reused');
    expect((await repo.claim('ses_a', 'pinned', 'h', muchLater)).kind).toBe('acquired');
  });

  it('unlocks an unfinished key for the same request only, and never reopens a completed one', async () => {
    await repo.claim('ses_a', 'k', 'h');
    await repo.unlock('ses_a', 'k');
    // Another request (another nonce) may not take the key over, even unlocked: it stays pinned to the first.
    expect((await repo.claim('ses_a', 'k', 'other')).kind).toBe('reused');
    expect((await repo.claim('ses_a', 'k', 'h')).kind).toBe('acquired');
    await repo.complete('ses_a', 'k', 201, '{}');
    await repo.unlock('ses_a', 'k');
    expect((await repo.claim('ses_a', 'k', 'h')).kind).toBe('replay');
  });
});
