import { z } from 'zod';
import type { Config, GatewayConfig } from '../../config.ts';
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

/**
 * The gateway's card field page, for a gateway that speaks the sandbox's client contract (docs/contracts.md: its frames
 * are `${assetsUrl}/hosted-fields/frame.html`, the gateway's browser origin). None for Braintree: braintree-web's hosted
 * fields page is versioned with the library, not known before its client runs.
 */
export function cardFieldsPage(config: Pick<Config, 'gateway' | 'gatewayOrigins'>): string | null {
  const origin = config.gatewayOrigins[0];
  return config.gateway?.kind === 'custom' && origin !== undefined ? `${origin}/hosted-fields/frame.html` : null;
}

/** What the web app needs to know about this shop before any order exists. */
export const shopConfigSchema = z.object({
  sandbox: z.boolean().describe('Payments go to a test gateway: the web app may show the test cards.'),
  cardFieldsPage: z
    .string()
    .nullable()
    .describe(
      "The gateway's card field page, which the cart loads ahead in a hidden frame so the checkout's card fields come sooner; null when not known (the real provider).",
    ),
});

export function configRoutes(app: ApiInstance, ctx: AppContext): void {
  app.get(
    '/api/config',
    {
      schema: { summary: 'What the web app needs to know about this shop', tags: ['meta'], response: { 200: shopConfigSchema } },
    },
    async () => ({ sandbox: isSandboxGateway(ctx.config.gateway), cardFieldsPage: cardFieldsPage(ctx.config) }),
  );
}
