import { createServer } from 'node:net';

/** Tries of `onFreePort`: each fails only if another process took the port in the moment since it was picked. */
const PORT_TRIES = 5;

/**
 * Runs `start` on a port free on `host`, and on another one while it fails with EADDRINUSE. The port is picked before
 * it is listened on (npm start needs the server's address before the server starts: the sandbox posts its webhooks to
 * it), so another process can bind it meanwhile: seen when e2e's Kassas started side by side on a loaded machine.
 */
export async function onFreePort<T>(host: string, start: (port: number) => Promise<T>, pick = freePort): Promise<T> {
  for (let tried = 1; ; tried++) {
    try {
      return await start(await pick(host));
    } catch (error) {
      if (tried === PORT_TRIES || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    }
  }
}

/** A port free on `host` right now. */
export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, host, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address !== null ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
