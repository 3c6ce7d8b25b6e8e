import { createServer, type Server } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort, onFreePort } from './free-port.ts';

const host = '127.0.0.1';
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** Listens on `port`, as the start script's server does; rejects as it does when the port is taken. */
function listen(port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, host, () => {
      servers.push(server);
      resolve(port);
    });
  });
}

describe('onFreePort', () => {
  it('starts on another port when another process took the picked one before the listen (EADDRINUSE)', async () => {
    const taken = await listen(await freePort(host));
    const picked: number[] = [];
    const pick = async () => {
      const port = picked.length === 0 ? taken : await freePort(host);
      picked.push(port);
      return port;
    };
    const port = await onFreePort(host, listen, pick);
    expect(picked).toEqual([taken, port]);
    expect(port).not.toBe(taken);
  });

  it('does not start again after an error other than EADDRINUSE', async () => {
    let tries = 0;
    const failing = async () => {
      tries++;
      throw new Error('bad setting');
    };
    await expect(onFreePort(host, failing)).rejects.toThrow('bad setting');
    expect(tries).toBe(1);
  });
});
