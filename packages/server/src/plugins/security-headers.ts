import helmet from '@fastify/helmet';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';

/**
 * A strict CSP on every response: no inline script or style, no eval. The gateway's origin may be framed
 * (hosted card fields) and called (client API); blob: workers run the bot-check's proof of work.
 */
export function contentSecurityPolicy(gatewayOrigins: readonly string[]): Record<string, string[]> {
  const gateway = gatewayOrigins.length > 0 ? [...gatewayOrigins] : ["'none'"];
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'"],
    'style-src': ["'self'"],
    'img-src': ["'self'", 'data:'],
    'frame-src': gateway,
    'connect-src': ["'self'", ...gatewayOrigins],
    'worker-src': ["'self'", 'blob:'],
    'object-src': ["'none'"],
    'base-uri': ["'none'"],
    'frame-ancestors': ["'none'"],
    'form-action': ["'self'"],
  };
}

export async function registerSecurityHeaders(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(helmet, {
    global: true,
    contentSecurityPolicy: { useDefaults: false, directives: contentSecurityPolicy(config.gatewayOrigins) },
    // COEP would stop the gateway's frames from loading (they are cross-origin and do not opt in).
    crossOriginEmbedderPolicy: false,
    // Gateway pop-ups (3-D Secure, wallet sheets) may need their opener.
    crossOriginOpenerPolicy: { policy: 'same-origin-allow-popups' },
    // Matches CSP frame-ancestors 'none' for browsers that only know X-Frame-Options.
    frameguard: { action: 'deny' },
    // HSTS only makes sense behind https; the local demo is plain http.
    strictTransportSecurity: config.secureCookies,
  });
}
