import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Db } from '../db/connect.ts';
import { prepared } from '../db/prepared.ts';
import { nowIso } from '../ids.ts';

const countHitQuery = prepared(
  (db, p: { bucket: string; windowEndsAt: string }) =>
    db
      .insertInto('rate_limit_hits')
      .values({ bucket: p.bucket, window_ends_at: p.windowEndsAt, hits: 1 })
      .onConflict((oc) =>
        oc.columns(['bucket', 'window_ends_at']).doUpdateSet((eb) => ({ hits: eb('rate_limit_hits.hits', '+', 1) })),
      )
      .returning('hits'),
  // A count lost in a power cut lets a client a few more requests: not worth a flush (README, "Durability").
  { commit: 'relaxed' },
);

/**
 * One client's hits on one route in the current fixed window, counted in the database so that every instance of the
 * server enforces the same limit (the plugin's default store counts in each process's memory). One upsert per
 * request: the primary key (bucket, window end) makes the increment atomic on both engines. Windows are fixed (each
 * minute of the clock, for a one-minute limit), so a client may spend a window's allowance at the end of one and again
 * at the start of the next; the velocity rules (src/velocity/) are the finer defence. Ended windows are swept
 * (src/jobs/sweeper.ts). Compiled once (db/prepared.ts): every limited request runs it.
 */
export async function countHit(
  db: Db,
  bucket: string,
  windowMs: number,
  nowMs: number,
): Promise<{ current: number; ttl: number }> {
  const windowEndsMs = (Math.floor(nowMs / windowMs) + 1) * windowMs;
  const row = await countHitQuery.takeFirst(db, { bucket, windowEndsAt: nowIso(new Date(windowEndsMs)) });
  if (row === undefined) throw new Error('the rate-limit upsert returned no row');
  return { current: row.hits, ttl: windowEndsMs - nowMs };
}

/** What the plugin hands `child`: the route's merged options, with the route itself under `routeInfo`. */
interface RouteRateLimitOptions {
  routeInfo?: { method?: unknown; url?: unknown };
}

/** The `store` option of @fastify/rate-limit: a store per route (`child`), its buckets named by route and client key. */
export function databaseRateLimitStore(db: Db, clock: () => number = Date.now): FastifyRateLimitStoreCtor {
  class DatabaseRateLimitStore implements FastifyRateLimitStore {
    readonly #route: string;

    constructor(options: RouteRateLimitOptions) {
      const route = options.routeInfo;
      this.#route = route === undefined ? '*' : `${String(route.method)} ${String(route.url)}`;
    }

    incr(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void, timeWindow: number) {
      countHit(db, `${this.#route} ${key}`, timeWindow, clock()).then(
        (result) => callback(null, result),
        (error: unknown) => callback(error instanceof Error ? error : new Error(String(error))),
      );
    }

    child(routeOptions: unknown): FastifyRateLimitStore {
      return new DatabaseRateLimitStore(routeOptions as RouteRateLimitOptions);
    }
  }
  return DatabaseRateLimitStore;
}
