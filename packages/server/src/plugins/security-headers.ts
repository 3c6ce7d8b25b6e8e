import type { FastifyInstance } from 'fastify';
import helmet from 'helmet';
import type { Config } from '../config.ts';

/**
 * A strict CSP on every response: no inline script or style, no eval. The gateway's origin may be framed
 * (hosted card fields) and called (client API); the bot-check's proof of work runs in workers of the shop's own
 * origin (no blob: workers). A third-party bot-check's origins may serve its script, its frames and its styles (its
 * widget adds them), and be called.
 */
export function contentSecurityPolicy(
  gatewayOrigins: readonly string[],
  widgetOrigins: readonly string[] = [],
): Record<string, string[]> {
  const frames = [...gatewayOrigins, ...widgetOrigins];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...widgetOrigins],
    'style-src': ["'self'", ...widgetOrigins],
    'img-src': ["'self'", 'data:'],
    'frame-src': frames.length > 0 ? frames : ["'none'"],
    'connect-src': ["'self'", ...gatewayOrigins, ...widgetOrigins],
    'worker-src': ["'self'"],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

/**
 * Helmet's headers on every answer. Its middleware is built once here: @fastify/helmet built it again for every request
 * (parsing the options and the CSP's directives each time), which cost the payment route CPU and allocations
 * (issue 10). Nothing here varies per request (no CSP nonces).
 */
export function registerSecurityHeaders(app: FastifyInstance, config: Config): void {
  const applyHeaders = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: contentSecurityPolicy(config.gatewayOrigins, config.botcheck.widgetOrigins),
    },
    // COEP would stop the gateway's frames from loading (they are cross-origin and do not opt in).
    crossOriginEmbedderPolicy: false,
    // Gateway pop-ups (3-D Secure, wallet sheets) may need their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Matches CSP frame-ancestors 'none' for browsers that only know X-Frame-Options.
    frameguard: { action: 'deny' },
    // HSTS only makes sense behind https; the local demo is plain http.
    strictTransportSecurity: config.secureCookies,
  });
  app.addHook('onRequest', (request, reply, done) => {
    applyHeaders(request.raw, reply.raw, (error) => done(error instanceof Error ? error : undefined));
  });
}
