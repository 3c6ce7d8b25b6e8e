import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { registerConnectionClose } from './connection-close.ts';

describe('closing the app', () => {
  it('ends a keep-alive connection whose request was being answered, instead of waiting out its keep-alive time', async () => {
    const app = Fastify();
    registerConnectionClose(app);
    let answer: () => void = () => {};
    const answering = new Promise<void>((resolve) => {
      answer = resolve;
    });
    let received: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      received = resolve;
    });
    app.post('/held', async () => {
      received();
      await answering;
      return { ok: true };
    });
    app.post('/quick', async () => ({ ok: true }));
    let closing: () => void = () => {};
    const closeBegun = new Promise<void>((resolve) => {
      closing = resolve;
    });
    app.addHook('preClose', async () => closing());
    await app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = app.server.address() as { port: number };
    // One keep-alive connection (Node's fetch keeps it), then a request on it that is still being answered at the close.
    expect((await fetch(`http://127.0.0.1:${port}/quick`, { method: 'POST' })).headers.get('connection')).toBe('keep-alive');
    const held = fetch(`http://127.0.0.1:${port}/held`, { method: 'POST' });
    await arrived;
    const started = Date.now();
    const closed = app.close();
    await closeBegun;
    answer();
    const response = await held;
    expect([response.status, response.headers.get('connection')]).toEqual([200, 'close']);
    await closed;
    // Without the plugin the close waits for the connection's keep-alive time (72 s).
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
