import { z } from 'zod';
import type { GatewayConfig } from '../../config.ts';
import type { AppContext } from '../../context.ts';
import type { ApiInstance } from '../../plugins/openapi.ts';

/**
 * Whether payments go to a test gateway (Kassa's sandbox, or Braintree's sandbox): only then does the web app show
 * the test cards and the declining amount, which mean nothing to a shopper paying for real.
 */
export function isSandboxGateway(gateway: GatewayConfig | null): boolean {
  if (gateway === null) return false;
  return gateway.kind === 'custom' || gateway.environment === 'sandbox';
}

/** What the web app needs to know about this shop before any order exists. */
export const shopConfigSchema = z.object({
  sandbox: z.boolean().describe('Payments go to a test gateway: the web app may show the test cards.'),
});

export function configRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/config',
    {
      schema: { summary: 'What the web app needs to know about this shop', tags: ['meta'], response: { 200: shopConfigSchema } },
    },
    async () => ({ sandbox: isSandboxGateway(ctx.config.gateway) }),
  );
}
