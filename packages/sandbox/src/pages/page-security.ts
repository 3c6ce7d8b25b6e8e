import type { FastifyReply } from 'fastify';

/**
 * Strict CSP for the sandbox's pages (card field frames, 3-D Secure challenge, wallet approval): nothing inline;
 * scripts, styles and fetches only from the sandbox itself; framable by any merchant page (each page talks only to
 * the parent origin it was given).
 */
export const FRAME_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  'frame-ancestors *',
].join('; ');

/** `cacheControl`: revalidated on every use unless the page says otherwise (the card field frame's files). */
export function securePage(reply: FastifyReply, contentType: string, cacheControl = 'no-cache'): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('content-security-policy', FRAME_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('cache-control', cacheControl);
}
