import type { FastifyBaseLogger } from 'fastify';
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

/**
 * The gateway's card field page, for a gateway that speaks the sandbox's client contract (docs/contracts.md: its frames
 * are `${assetsUrl}/hosted-fields/frame.html`), read from a client token it made: GATEWAY_ORIGIN lists every browser
 * origin of the gateway for the Content-Security-Policy, in no set order, and the server's GATEWAY_HOST may not be the
 * browser's. Null when the token names no assets origin that policy lets the shop frame (the frame would be refused).
 */
export function cardFieldsPage(clientToken: string, gatewayOrigins: readonly string[]): string | null {
  let assetsUrl: unknown;
  try {
    assetsUrl = (JSON.parse(Buffer.from(clientToken, 'base64').toString('utf8')) as { assetsUrl?: unknown }).assetsUrl;
  } catch {
    return null;
  }
  if (typeof assetsUrl !== 'string' || !URL.canParse(assetsUrl)) return null;
  return gatewayOrigins.includes(new URL(assetsUrl).origin) ? `${assetsUrl.replace(/\/$/, '')}/hosted-fields/frame.html` : null;
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

/**
 * How long GET /api/config waits for the gateway's client token before it answers without the card field page: a
 * gateway that hangs must not hold the shop's header back for the SDK's whole time-out. The ask goes on; its page is
 * kept for the next request.
 */
export const CARD_FIELDS_PAGE_WAIT_MS = 2_000;

/** The promise's value, or null if it has none within `ms`. */
function nullAfter<T>(promise: Promise<T | null>, ms: number): Promise<T | null> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(resolve, ms, null);
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}

export function configRoutes(app: ApiInstance, ctx: AppContext): void {
  const { gateway } = ctx;
  // Asked of the gateway once, at the first request; a failed ask answers null and is asked again at the next one.
  // None for Braintree: braintree-web's hosted fields page is versioned with the library, not known before its client runs.
  let page: Promise<string | null> | null = null;
  const pageOnce = (log: FastifyBaseLogger): Promise<string | null> => {
    if (gateway === null || ctx.config.gateway?.kind !== 'custom') return Promise.resolve(null);
    page ??= gateway.generateClientToken().then(
      (token) => {
        const found = cardFieldsPage(token, ctx.config.gatewayOrigins);
        if (found === null)
          log.warn("the gateway's client token names no assets origin of GATEWAY_ORIGIN's: its card frames would be refused");
        return found;
      },
      (error: unknown) => {
        log.warn({ err: error }, "the gateway's card field page is not known: its client token could not be made");
        page = null;
        return null;
      },
    );
    return page;
  };
  app.get(
    '/api/config',
    {
      schema: { summary: 'What the web app needs to know about this shop', tags: ['meta'], response: { 200: shopConfigSchema } },
    },
    async (request) => ({
      sandbox: isSandboxGateway(ctx.config.gateway),
      cardFieldsPage: await nullAfter(pageOnce(request.log), CARD_FIELDS_PAGE_WAIT_MS),
    }),
  );
}
