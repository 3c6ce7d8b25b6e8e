import type { FastifyInstance } from 'fastify';

/**
 * Closing the app ends keep-alive connections with it. Node closes the idle ones when the server closes, but a
 * connection answering a request at that moment stays open after its answer for the keep-alive time (Fastify's 72 s),
 * and the close waits for it: a gateway posting webhooks, or a reverse proxy, kept a stopping Kassa up that long. Every
 * answer sent once closing has begun says `Connection: close`, so Node ends its connection with it.
 */
export function registerConnectionClose(app: FastifyInstance): void {
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Synchronous: every answer passes here, and an async hook costs each a promise and a tick.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    done(null, payload);
  });
}
