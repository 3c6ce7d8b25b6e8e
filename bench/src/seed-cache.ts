import { createHash } from 'node:crypto';
import { constants, copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from './processes.ts';

// `--seed-payments N` seeds files that take minutes (Kassa's SQLite database) to half an hour (the sandbox's, a
// million payments at a load of 20-30): each is made once per count and per version of the code that makes it, kept
// in `.tmp/seed-cache/`, and copied for each run (a run writes to its copy). The payments' times are spread over the 90
// days before the file was made: a copy used days later is as many days older, which no growth figure reads.

const CACHE_DIR = join(ROOT, '.tmp', 'seed-cache');
/** SQLite's companions of a database file, copied with it when they are there. */
const SIDECARS = ['', '-wal', '-shm'];

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
 * Puts at `target` a copy of the seeded file `kind` of `count` payments, made by `make` (into the path it is given)
 * unless the cache holds one made by the same `sources`. Answers whether it was made. Older versions of the same kind
 * and count are removed (a million payments are 5 GB of sandbox).
 */
export async function seededCopy(options: {
  kind: string;
  count: number;
  sources: readonly string[];
  target: string;
  make: (file: string) => Promise<void>;
}): Promise<'made' | 'cached'> {
  const { kind, count, target } = options;
  mkdirSync(CACHE_DIR, { recursive: true });
  const stem = `${kind}-${count}-`;
  const cached = join(CACHE_DIR, `${stem}${sourcesHash(options.sources)}.sqlite`);
  let made: 'made' | 'cached' = 'cached';
  if (!existsSync(cached)) {
    for (const name of readdirSync(CACHE_DIR)) if (name.startsWith(stem)) rmSync(join(CACHE_DIR, name), { force: true });
    // Made under another name and renamed once complete: an interrupted seed is never taken for a cached one.
    const partial = `${cached}.partial`;
    for (const sidecar of SIDECARS) rmSync(`${partial}${sidecar}`, { force: true });
    await options.make(partial);
    for (const sidecar of SIDECARS.slice(1))
      if (existsSync(`${partial}${sidecar}`)) renameSync(`${partial}${sidecar}`, `${cached}${sidecar}`);
    renameSync(partial, cached);
    made = 'made';
  }
  for (const sidecar of SIDECARS) {
    rmSync(`${target}${sidecar}`, { force: true });
    // A reflink where the file system has them (instant), a copy elsewhere.
    if (existsSync(`${cached}${sidecar}`)) copyFileSync(`${cached}${sidecar}`, `${target}${sidecar}`, constants.COPYFILE_FICLONE);
  }
  return made;
}
