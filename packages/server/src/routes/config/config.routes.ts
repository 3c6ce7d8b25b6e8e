import type { FastifyInstance } from 'fastify';
import type { GatewayConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';

/**
 * Whether payments go to a test gateway (Kassa's sandbox, or Braintree's sandbox): only then does the web app show
 * the test cards and the declining amount, which mean nothing to a shopper paying for real.
 */
export function isSandboxGateway(gateway: GatewayConfig | null): boolean {
  if (gateway === null) return false;
  return gateway.kind === 'custom' || gateway.environment === 'sandbox';
}

/** What the web app needs to know about this shop before any order exists. */
export function configRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get('/api/config', async () => ({ sandbox: isSandboxGateway(ctx.config.gateway) }));
}
