import Fastify from 'fastify';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Faults } from './core/faults.ts';
import type { SandboxGateway } from './core/gateway.ts';
import { clientApiRoutes } from './client-api/routes.ts';
import { deviceDataPageRoutes } from './pages/device-data/routes.ts';
import { hostedFieldRoutes } from './pages/hosted-fields/routes.ts';
import { threeDSecurePageRoutes } from './pages/three-d-secure/routes.ts';
import { walletPageRoutes } from './pages/wallets/routes.ts';
import { serverApiRoutes } from './server-api/routes.ts';
import { clockRoutes } from './test-controls/clock-routes.ts';
import { injectFaults } from './test-controls/inject-faults.ts';
import { testControlRoutes } from './test-controls/routes.ts';
import { settingsControl } from './test-controls/settings.ts';

export type SandboxLogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';

export interface AppOptions {
  gateway: SandboxGateway;
  /** false (default) for silence; true or a level for structured request logs (method, path, status; no bodies). */
  logger?: boolean | SandboxLogLevel;
  /** Where logs go (stdout by default); tests read it to prove card data never reaches the logs. */
  logStream?: { write(line: string): void };
  /** TEST ONLY fault rules applied to every request (none by default: nothing changes). */
  faults?: Faults;
  /** TEST ONLY: serve the control endpoints (`/__sandbox/faults`, `/__sandbox/settings`, `/__sandbox/clock`) over HTTP. */
  testControls?: boolean;
}

/**
 * Request logs carry the path only: query strings may hold authorization fingerprints, and bodies (never logged
 * by Fastify, nor here) hold card data.
 */
function requestSummary(request: FastifyRequest): { method: string; path: string } {
  return { method: request.method, path: request.url.split('?')[0] ?? '' };
}

export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const logger = options.logger ?? false;
  const app = Fastify({
    logger:
      logger === false
        ? false
        : {
            level: logger === true ? 'info' : logger,
            serializers: { req: requestSummary },
            ...(options.logStream === undefined ? {} : { stream: options.logStream }),
          },
  });

  // The SDK sends `Content-Type: application/json` even on bodiless PUTs (void): an empty body is `{}`, not a 400.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') {
      done(null, {});
      return;
    }
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      const error = new Error('Body is not valid JSON') as Error & { statusCode: number };
      error.statusCode = 400;
      done(error, undefined);
    }
  });

  if (options.faults !== undefined) {
    injectFaults(app, options.faults);
    if (options.testControls === true) {
      await app.register(testControlRoutes, {
        faults: options.faults,
        settings: settingsControl(options.gateway),
        gateway: options.gateway,
      });
    }
  }
  if (options.testControls === true) await app.register(clockRoutes, { gateway: options.gateway });
  await app.register(clientApiRoutes, { prefix: '/merchants/:merchantId/client_api', gateway: options.gateway });
  await app.register(serverApiRoutes, { prefix: '/merchants/:merchantId', gateway: options.gateway });
  await app.register(hostedFieldRoutes);
  await app.register(threeDSecurePageRoutes, { gateway: options.gateway });
  await app.register(deviceDataPageRoutes, { gateway: options.gateway });
  await app.register(walletPageRoutes, { gateway: options.gateway });
  return app;
}
