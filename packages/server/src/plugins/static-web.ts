import { existsSync } from 'node:fs';
import { join, resolve, sep } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { problemBody } from '../http/problem.ts';
import { sendProblem } from './errors.ts';

/**
 * Serves the built web app, with the single-page-app fallback: any GET outside /api that is not a file
 * answers index.html so client-side routes survive a reload. Without WEB_DIST only the API is served.
 * A file the build compressed (`.gz` beside it, the web app's vite.config.ts) is sent compressed to a browser that
 * takes gzip; the hashed assets are cached for good, everything else (the HTML above all) is revalidated (issue 10).
 */
export async function registerStaticWeb(app: FastifyInstance, webDist: string | null): Promise<void> {
  const root = webDist === null ? null : resolve(webDist);
  if (root !== null) {
    if (!existsSync(resolve(root, 'index.html'))) app.log.warn({ root }, 'WEB_DIST has no index.html yet');
    // The build's scripts and stylesheets, named by their content's hash: a new build names its files anew.
    const hashed = join(root, 'assets') + sep;
    await app.register(fastifyStatic, {
      root,
      wildcard: true,
      index: ['index.html'],
      preCompressed: true,
      setHeaders: (reply, path) => {
        if (path.startsWith(hashed)) reply.header('cache-control', 'public, max-age=31536000, immutable');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (root !== null && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', root);
    }
    return sendProblem(reply, problemBody('not_found'));
  });
}
