import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parseFaultSpec } from '../core/faults.ts';
import type { Faults } from '../core/faults.ts';
import type { SandboxGateway } from '../core/gateway.ts';
import { parseMerchantSettings } from '../core/merchant-settings.ts';
import { TEST_CONTROL_PREFIX } from './inject-faults.ts';
import type { SandboxSettings } from './settings.ts';

/**
 * TEST ONLY: the fault rules and the merchant settings over HTTP, for tests that run the sandbox in another process (`npm start`'s e2e run).
 * Registered only when the sandbox starts with `testControls` (SANDBOX_TEST_CONTROLS=1); otherwise these paths are
 * 404 like any unknown path. No CORS: tests call it from Node, never from a shop page.
 */
export async function testControlRoutes(
  app: FastifyInstance,
  options: { faults: Faults; settings: SandboxSettings; gateway: SandboxGateway },
): Promise<void> {
  const { faults, settings, gateway } = options;
  const base = `${TEST_CONTROL_PREFIX}/faults`;

  app.get(base, async () => ({ faults: faults.list() }));

  app.post(base, async (request, reply) => {
    const parsed = parseFaultSpec(request.body);
    if (!parsed.ok) return reply.code(400).send({ error: { message: 'Invalid fault', problems: parsed.problems } });
    return reply.code(201).send({ fault: faults.inject(parsed.spec) });
  });

  app.delete(base, async (_request, reply) => {
    faults.clear();
    return reply.code(204).send();
  });

  app.delete(`${base}/:id`, async (request: FastifyRequest<{ Params: { id: string } }>, reply) =>
    faults.remove(request.params.id) ? reply.code(204).send() : reply.code(404).send({ error: { message: 'No such fault' } }),
  );

  const settingsUrl = `${TEST_CONTROL_PREFIX}/settings`;
  app.get(settingsUrl, async () => ({ settings: settings.get() }));
  app.patch(settingsUrl, async (request, reply) => {
    const parsed = parseMerchantSettings(request.body, settings.get());
    if (!parsed.ok) return reply.code(400).send({ error: { message: 'Invalid settings', problems: parsed.problems } });
    return { settings: settings.update(parsed.settings) };
  });
  app.delete(settingsUrl, async () => ({ settings: settings.reset() }));

  // What a sale's device data was (the provider shows it in its control panel; the SDK only says it was captured),
  // and the browser its 3-D Secure lookup described (which the SDK does not return).
  app.get(
    `${TEST_CONTROL_PREFIX}/transactions/:id/device-data`,
    async (request: FastifyRequest<{ Params: { id: string } }>, reply) => {
      const transaction = gateway.findTransaction(request.params.id);
      if (transaction === undefined) return reply.code(404).send({ error: { message: 'No such transaction' } });
      const recorded = gateway.deviceData.ofTransaction(request.params.id);
      return {
        deviceData: recorded?.deviceData ?? null,
        deviceSession: recorded?.deviceSession ?? null,
        threeDSecureBrowser: recorded?.threeDSecureBrowser ?? null,
      };
    },
  );
}
