import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { childrenOf, cpuMsOf } from './processes.ts';

// `payment-cpu --postgres --statements`: what PostgreSQL did for the last batch's payments, per payment, by statement
// (pg_stat_statements: calls, execution time, pages, write-ahead log) and by table (rows inserted, updated, of them
// HOT: an update that writes no index entry, deleted) and by process (CPU). The server loads pg_stat_statements at its start
// (STATEMENT_SETTINGS); the counts are reset before the batch.

export const STATEMENT_SETTINGS = { shared_preload_libraries: 'pg_stat_statements', 'pg_stat_statements.max': '1000' };

/**
 * A backend sends its tables' counts to the shared statistics at most once a second while busy, and within 10 s of
 * going idle (PostgreSQL's PGSTAT_IDLE_INTERVAL): read after that. Longer than pg's idle time-out of a pooled
 * connection (10 s): payment-cpu opens Kassa's pool with none, so the measured batch runs on the warm-up's connections.
 */
const TABLE_COUNTS_SETTLE_MS = 11_000;

export interface StatementFigures {
  statement: string;
  calls: number;
  /** Execution time in µs. */
  µs: number;
  /** Shared buffers hit, read, dirtied. */
  pages: number;
  dirtied: number;
  walRecords: number;
  walBytes: number;
}

export interface TableFigures {
  table: string;
  inserted: number;
  updated: number;
  hot: number;
  deleted: number;
}

export interface PostgresFigures {
  /** The write-ahead log's growth per payment, every process's (bytes), and its flushes (fsync) per payment. */
  walBytes: number;
  walFlushes: number;
  /** CPU ms per payment by process: a background process by its kind, a connection's backend by its client's port. */
  processes: Array<{ process: string; ms: number }>;
  statements: StatementFigures[];
  tables: TableFigures[];
}

async function withClient<T>(url: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}

/**
 * A process of the server by its title less the part that changes: a connection's backend (`postgres: USER DATABASE
 * HOST(PORT) STATE`) by its client's address and port, any other process (`postgres: io worker 0`) by its title.
 */
export function processName(title: string): string {
  const client = /^postgres: \S+ \S+ (\S+\(\d+\)|\[local\])/.exec(title);
  return client === null ? title : `backend ${client[1]}`;
}

/** The CPU ms so far of each of the server's processes, by processName. */
function processesCpuMs(postmasterPid: number): Map<string, number> {
  const byProcess = new Map<string, number>();
  for (const pid of childrenOf(postmasterPid)) {
    try {
      byProcess.set(processName(readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim()), cpuMsOf(pid));
    } catch {
      // ended since the scan
    }
  }
  return byProcess;
}

/** Resets the counts; returns a function that reads them per payment once `payments` have been made. */
export async function countStatements(
  url: string,
  postmasterPid: number,
): Promise<(payments: number) => Promise<PostgresFigures>> {
  await sleep(TABLE_COUNTS_SETTLE_MS);
  const start = await withClient(url, async (client) => {
    await client.query('create extension if not exists pg_stat_statements');
    await client.query("select pg_stat_statements_reset(), pg_stat_reset(), pg_stat_reset_shared('io')");
    return (await client.query<{ lsn: string }>('select pg_current_wal_lsn() as lsn')).rows[0]?.lsn;
  });
  const cpuAtStart = processesCpuMs(postmasterPid);
  return async (payments) => {
    const cpu = [...processesCpuMs(postmasterPid)]
      .map(([process, ms]) => ({ process, ms: (ms - (cpuAtStart.get(process) ?? 0)) / payments }))
      .sort((a, b) => b.ms - a.ms);
    await sleep(TABLE_COUNTS_SETTLE_MS);
    return withClient(url, async (client) => {
      const per = (value: string | number) => Number(value) / payments;
      const wal = await client.query<{ bytes: string }>('select pg_current_wal_lsn() - $1::pg_lsn as bytes', [start]);
      const flushes = await client.query<{ n: string }>(`select sum(fsyncs) as n from pg_stat_io where object = 'wal'`);
      const statements = await client.query<Record<string, string>>(`
        select regexp_replace(query, '\\s+', ' ', 'g') as statement, calls, total_exec_time,
          shared_blks_hit + shared_blks_read as pages, shared_blks_dirtied as dirtied, wal_records, wal_bytes
        from pg_stat_statements where dbid = (select oid from pg_database where datname = current_database())
          and query not like '%pg_stat%'
        order by total_exec_time desc`);
      const tables = await client.query<Record<string, string>>(`
        select relname, n_tup_ins, n_tup_upd, n_tup_hot_upd, n_tup_del from pg_stat_user_tables
        where n_tup_ins + n_tup_upd + n_tup_del > 0 order by n_tup_upd + n_tup_ins desc`);
      return {
        walBytes: per(wal.rows[0]?.bytes ?? 0),
        walFlushes: per(flushes.rows[0]?.n ?? 0),
        processes: cpu,
        statements: statements.rows.map((row) => ({
          statement: row['statement'] ?? '',
          calls: per(row['calls'] ?? 0),
          µs: per(row['total_exec_time'] ?? 0) * 1000,
          pages: per(row['pages'] ?? 0),
          dirtied: per(row['dirtied'] ?? 0),
          walRecords: per(row['wal_records'] ?? 0),
          walBytes: per(row['wal_bytes'] ?? 0),
        })),
        tables: tables.rows.map((row) => ({
          table: row['relname'] ?? '',
          inserted: per(row['n_tup_ins'] ?? 0),
          updated: per(row['n_tup_upd'] ?? 0),
          hot: per(row['n_tup_hot_upd'] ?? 0),
          deleted: per(row['n_tup_del'] ?? 0),
        })),
      };
    });
  };
}

export function formatPostgresFigures({ walBytes, walFlushes, processes, statements, tables }: PostgresFigures): string {
  const n = (value: number, digits = 2) => value.toFixed(digits).padStart(8);
  return [
    `PostgreSQL per payment: ${walBytes.toFixed(0)} bytes of write-ahead log in all, ${walFlushes.toFixed(2)} flushes of it; CPU ms by process:`,
    `  ${processes.map(({ process, ms }) => `${process} ${ms.toFixed(3)}`).join(', ')}`,
    '   calls       µs    pages  dirtied  WAL rec  WAL bytes  statement',
    ...statements
      .filter((s) => s.calls >= 0.01)
      .map(
        (s) =>
          `${n(s.calls)} ${n(s.µs, 1)} ${n(s.pages, 1)} ${n(s.dirtied, 1)} ${n(s.walRecords, 1)} ${n(s.walBytes, 0)}   ${s.statement.slice(0, 150)}`,
      ),
    '  inserted  updated  of them HOT  deleted  table',
    ...tables.map((t) => `${n(t.inserted)} ${n(t.updated)} ${n(t.hot)}     ${n(t.deleted)}  ${t.table}`),
  ].join('\n');
}
