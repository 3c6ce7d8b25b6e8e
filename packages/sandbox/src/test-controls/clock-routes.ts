import type { FastifyInstance } from 'fastify';
import type { SandboxGateway } from '../core/gateway.ts';
import { TEST_CONTROL_PREFIX } from './inject-faults.ts';

/**
 * TEST ONLY: the sandbox's clock over HTTP (the provider has no such call), for tests that run the sandbox in another
 * process: they move its time forward to see a settlement batch, a month's subscription charge or a webhook retry
 * without waiting. Registered only with `testControls` (SANDBOX_TEST_CONTROLS=1), like the fault rules.
 *   GET  /__sandbox/clock                      -> { now }
 *   POST /__sandbox/clock { "advanceMs": N }   -> { now } (N whole milliseconds, >= 0; else 400)
 */
export async function clockRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;
  const path = `${TEST_CONTROL_PREFIX}/clock`;

  app.get(path, async () => ({ now: gateway.now().toISOString() }));

  app.post(path, async (request, reply) => {
    const body = request.body as { advanceMs?: unknown } | null;
    const advanceMs = body?.advanceMs;
    if (typeof advanceMs !== 'number' || !Number.isSafeInteger(advanceMs) || advanceMs < 0) {
      return reply.code(400).send({ error: { message: 'advanceMs must be a whole number of milliseconds, 0 or more' } });
    }
    return { now: gateway.advanceClock(advanceMs).toISOString() };
  });
}
