import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { securePage } from '../page-security.ts';
import { bundleFrameScript } from './bundle.ts';

const FRAME_HTML = readFileSync(new URL('./frame.html', import.meta.url), 'utf8');
const FRAME_CSS = readFileSync(new URL('./frame.css', import.meta.url), 'utf8');

export async function hostedFieldRoutes(app: FastifyInstance): Promise<void> {
  const script = await bundleFrameScript();
  app.get('/hosted-fields/frame.html', async (_request, reply) => securePage(reply, 'text/html; charset=utf-8').send(FRAME_HTML));
  app.get('/hosted-fields/frame.js', async (_request, reply) => securePage(reply, 'text/javascript; charset=utf-8').send(script));
  app.get('/hosted-fields/frame.css', async (_request, reply) => securePage(reply, 'text/css; charset=utf-8').send(FRAME_CSS));
}
