import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { DEVICE_SESSION_ID, parseSignals } from '../../core/device-data.ts';
import type { SandboxGateway } from '../../core/gateway.ts';
import { bundleScript } from '../bundle-script.ts';
import { securePage } from '../page-security.ts';

const PAGE_HTML = readFileSync(new URL('./collector.html', import.meta.url), 'utf8');

export function bundleCollectorScript(): Promise<string> {
  return bundleScript(new URL('./collector.ts', import.meta.url));
}

/** The device-data collector frame and the call it makes (docs/contracts.md section 1, "Device data"). */
export async function deviceDataPageRoutes(app: FastifyInstance, options: { gateway: SandboxGateway }): Promise<void> {
  const { gateway } = options;
  const script = await bundleCollectorScript();
  app.get('/device-data/collector.html', async (_request, reply) =>
    securePage(reply, 'text/html; charset=utf-8').send(PAGE_HTML),
  );
  app.get('/device-data/collector.js', async (_request, reply) =>
    securePage(reply, 'text/javascript; charset=utf-8').send(script),
  );
  app.post('/device-data/sessions', async (request, reply) => {
    const body = (request.body ?? {}) as { sessionId?: unknown; signals?: unknown };
    const signals = parseSignals(body.signals);
    if (typeof body.sessionId !== 'string' || !DEVICE_SESSION_ID.test(body.sessionId) || signals === null) {
      return reply.code(400).send({
        error: { message: 'A device session is { sessionId: 32 hex digits, signals: { name: short string or number } }' },
      });
    }
    gateway.deviceData.recordSession(body.sessionId, signals, gateway.now());
    return reply.code(204).send();
  });
}
