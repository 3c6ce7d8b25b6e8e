import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { bundleFrameScript } from './bundle.ts';

/**
 * Strict CSP for the frame: nothing inline, scripts, styles and fetches only from the sandbox itself, and framable
 * by any merchant page (the frame refuses messages from anyone but its declared parent origin).
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

const FRAME_HTML = readFileSync(new URL('./frame.html', import.meta.url), 'utf8');
const FRAME_CSS = readFileSync(new URL('./frame.css', import.meta.url), 'utf8');

function secure(reply: FastifyReply, contentType: string): FastifyReply {
  return reply
    .header('content-type', contentType)
    .header('content-security-policy', FRAME_CSP)
    .header('x-content-type-options', 'nosniff')
    .header('referrer-policy', 'no-referrer')
    .header('cross-origin-resource-policy', 'cross-origin')
    .header('cache-control', 'no-cache');
}

export async function hostedFieldRoutes(app: FastifyInstance): Promise<void> {
  const script = await bundleFrameScript();
  app.get('/hosted-fields/frame.html', async (_request, reply) => secure(reply, 'text/html; charset=utf-8').send(FRAME_HTML));
  app.get('/hosted-fields/frame.js', async (_request, reply) =>
    secure(reply, 'text/javascript; charset=utf-8').send(script),
  );
  app.get('/hosted-fields/frame.css', async (_request, reply) => secure(reply, 'text/css; charset=utf-8').send(FRAME_CSS));
}
