import { readFileSync } from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { securePage } from '../page-security.ts';
import { bundleHostedFieldScripts, versionOf } from './bundle.ts';

const FRAME_HTML = readFileSync(new URL('./frame.html', import.meta.url), 'utf8');
const FRAME_CSS = readFileSync(new URL('./frame.css', import.meta.url), 'utf8');

/**
 * A checkout loads five frames of the same page, script and stylesheet: cached, the browser fetches each once (its
 * cache has the other frames wait for the first answer) instead of five times, even on a shopper's first visit (issue
 * 10). The page names its script and stylesheet by their content's hash, which is cached for good; the page itself for
 * a few minutes only, so a new sandbox's frames are in use soon after it starts.
 */
const PAGE_CACHE = 'public, max-age=300';
const VERSIONED_CACHE = 'public, max-age=31536000, immutable';

/** The file's caching: for good when asked for by the current version, else revalidated each time. */
function cacheFor(request: FastifyRequest, version: string): string {
  return (request.query as { v?: unknown }).v === version ? VERSIONED_CACHE : 'no-cache';
}

export async function hostedFieldRoutes(app: FastifyInstance): Promise<void> {
  const { frame: script, validate, tokenize } = await bundleHostedFieldScripts();
  const scriptVersion = versionOf(script);
  // The modules frame.js imports, named with their versions: the card rules, as a frame announces itself ready, and the
  // number frame's tokenization, once the shopper types in it.
  const modules = { 'validate.js': validate, 'tokenize.js': tokenize };
  const cssVersion = versionOf(FRAME_CSS);
  const html = FRAME_HTML.replace('href="frame.css"', `href="frame.css?v=${cssVersion}"`).replace(
    'src="frame.js"',
    `src="frame.js?v=${scriptVersion}"`,
  );
  app.get('/hosted-fields/frame.html', async (_request, reply) =>
    securePage(reply, 'text/html; charset=utf-8', PAGE_CACHE).send(html),
  );
  app.get('/hosted-fields/frame.js', async (request, reply) =>
    securePage(reply, 'text/javascript; charset=utf-8', cacheFor(request, scriptVersion)).send(script),
  );
  for (const [file, module] of Object.entries(modules)) {
    const version = versionOf(module);
    app.get(`/hosted-fields/${file}`, async (request, reply) =>
      securePage(reply, 'text/javascript; charset=utf-8', cacheFor(request, version)).send(module),
    );
  }
  app.get('/hosted-fields/frame.css', async (request, reply) =>
    securePage(reply, 'text/css; charset=utf-8', cacheFor(request, cssVersion)).send(FRAME_CSS),
  );
}
