import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { problemBody } from '../http/problem.ts';
import { sendProblem } from './errors.ts';

/**
 * Serves the built web app, with the single-page-app fallback: any GET outside /api that is not a file
 * answers index.html so client-side routes survive a reload. Without WEB_DIST only the API is served.
 */
export async function registerStaticWeb(app: FastifyInstance, webDist: string | null): Promise<void> {
  const root = webDist === null ? null : resolve(webDist);
  if (root !== null) {
    if (!existsSync(resolve(root, 'index.html'))) app.log.warn({ root }, 'WEB_DIST has no index.html yet');
    await app.register(fastifyStatic, { root, wildcard: true, index: ['index.html'] });
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url === '/api' || request.url.startsWith('/api/');
    if (root !== null && !isApi && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html', root);
    }
    return sendProblem(reply, problemBody('not_found'));
  });
}
