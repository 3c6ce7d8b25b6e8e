import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ProblemError } from '../http/problem.ts';
import { IdempotencyRepository } from '../payments/idempotency.repository.ts';
import { appPerTest } from '../testing/app-per-test.ts';
import { ENGINES } from '../testing/engines.ts';
import { registerErrorMapping } from './errors.ts';
import { heldKeyRef, registerIdempotency } from './idempotency.ts';
import { registerOpenApi } from './openapi.ts';

/**
 * The plugin on a route of its own (not payments): a counter that a request increments, so a test sees which requests
 * ran. The visitor is the `x-visitor` header here, standing in for the session cookie (plugins/sessions.ts).
 */
async function counterApp(keys: IdempotencyRepository): Promise<{ app: FastifyInstance; runs: string[]; open: () => void }> {
  const runs: string[] = [];
  // A request with `hold` waits here until the test opens the gate, so another can arrive meanwhile.
  let open = () => {};
  const gate = new Promise<void>((resolve) => {
    open = resolve;
  });
  const app = Fastify();
  registerErrorMapping(app);
  await registerOpenApi(app);
  app.decorateRequest('kassaSession', null);
  app.addHook('onRequest', async (request) => {
    const visitor = request.headers['x-visitor'];
    request.kassaSession =
      typeof visitor === 'string' ? { id: visitor, account_id: null, token_hash: '', created_at: '', expires_at: '' } : null;
  });
  registerIdempotency(app, keys);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/counters/:id',
    {
      config: { idempotency: { credentials: ['token'], withoutVisitor: 'not_signed_in' } },
      schema: {
        params: z.object({ id: z.string() }),
        body: z.object({
          by: z.number(),
          token: z.string().optional(),
          fail: z.boolean().optional(),
          hold: z.boolean().optional(),
        }),
      },
    },
    async (request, reply) => {
      runs.push(heldKeyRef(request));
      if (request.body.hold === true) await gate;
      if (request.body.fail === true) throw new ProblemError('payment_in_progress');
      return reply.status(201).send({ id: request.params.id, count: runs.length });
    },
  );
  await app.ready();
  return { app, runs, open };
}

describe.each(ENGINES.map((make) => [make().name, make] as const))('the Idempotency-Key plugin on %s', (_name, make) => {
  const engine = make();
  let app: FastifyInstance;
  let runs: string[];
  let open: () => void;
  beforeAll(() => engine.setup());
  afterAll(() => engine.teardown());
  appPerTest(engine, async (opened) => {
    ({ app, runs, open } = await counterApp(new IdempotencyRepository(opened.handle.db)));
    return app;
  });

  const post = (
    body: Record<string, unknown>,
    headers: Record<string, string> = { 'x-visitor': 'ses_a', 'idempotency-key': 'k1' },
    id = 'c1',
  ) =>
    app.inject({
      method: 'POST',
      url: `/counters/${id}`,
      headers: { 'content-type': 'application/json', ...headers },
      payload: JSON.stringify(body),
    });

  it("runs a key's request once and replays its answer as sent, whatever credentials the retry carries", async () => {
    const first = await post({ by: 1, token: 'a' });
    expect(first.statusCode).toBe(201);
    const retry = await post({ by: 1, token: 'fresh' });
    expect(retry.statusCode).toBe(201);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect([retry.headers['content-type'], retry.body]).toEqual([first.headers['content-type'], first.body]);
    expect(runs).toEqual(['ses_a:k1']);
  });

  it('refuses the key with another request (body or params) and scopes keys per visitor', async () => {
    await post({ by: 1 });
    expect((await post({ by: 2 })).json()).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect((await post({ by: 1 }, undefined, 'c2')).json()).toMatchObject({ code: 'idempotency_key_reused' });
    expect((await post({ by: 2 }, { 'x-visitor': 'ses_b', 'idempotency-key': 'k1' })).statusCode).toBe(201);
    expect(runs).toEqual(['ses_a:k1', 'ses_b:k1']);
  });

  it('releases the key when the handler throws, so the same request runs again', async () => {
    expect((await post({ by: 1, fail: true })).json()).toMatchObject({ status: 409, code: 'payment_in_progress' });
    expect((await post({ by: 1, fail: true })).statusCode).toBe(409);
    expect(runs).toHaveLength(2);
  });

  it("answers 409 while the key's first request runs", async () => {
    const first = post({ by: 1, hold: true });
    await expect.poll(() => runs.length).toBe(1);
    expect((await post({ by: 1, hold: true })).json()).toMatchObject({ status: 409, code: 'idempotency_key_in_use' });
    open();
    expect((await first).statusCode).toBe(201);
    expect((await post({ by: 1, hold: true })).headers['idempotent-replayed']).toBe('true');
    expect(runs).toHaveLength(1);
  });

  it('names a missing or too long key as the Idempotency-Key field, and refuses a visitor without a session', async () => {
    const missing = await post({ by: 1 }, { 'x-visitor': 'ses_a' });
    expect(missing.json()).toMatchObject({ status: 400, code: 'validation_failed', errors: [{ field: 'Idempotency-Key' }] });
    const long = await post({ by: 1 }, { 'x-visitor': 'ses_a', 'idempotency-key': 'k'.repeat(256) });
    expect(long.json()).toMatchObject({ errors: [{ field: 'Idempotency-Key' }] });
    expect((await post({ by: 1 }, { 'idempotency-key': 'k1' })).json()).toMatchObject({ status: 401, code: 'not_signed_in' });
    expect(runs).toEqual([]);
  });
});
