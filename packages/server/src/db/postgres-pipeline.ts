import { Socket } from 'node:net';
import pg from 'pg';
import type { CompiledQuery, QueryResult } from 'kysely';
import { runNamedStatement, statementName } from './postgres-query.ts';

/**
 * On PostgreSQL the compiled statements that run alone and wait for no flush (reads, and writes whose commit is
 * relaxed: prepared.ts) share a few connections, each statement written behind the ones still in flight without
 * waiting for their answers (pg's pipeline mode), instead of one pooled connection each (issue 10, pg6). A round trip
 * on a connection of its own cost Kassa's process about 55 µs of CPU and PostgreSQL's backend about 50 (a loop of a
 * compiled read, 16 at once, load 14-15): a send and a wake-up of a backend per statement, on both sides. Written
 * behind each other, the statements of the requests in flight reach one backend together, which reads them in one
 * go and works through them while Kassa reads their answers in few reads: 21-32 µs and 22-28 µs in the same loop.
 *
 * Each statement is its own transaction (pg ends each with a Sync), so one that fails fails alone. What is given up:
 * a statement waits for those written before it on its connection. Reads wait for no lock and relaxed writes for no
 * flush, and a request's own statements run one after another anyway; but a write that waits for another
 * transaction's row lock holds up the statements behind it, so a statement goes to the connection with the fewest in
 * flight. Flushed writes (a payment's attempt, its outcome, the key's answer: 1-5 ms of flush each here), transactions
 * and Kysely's other queries keep the pool.
 */
export interface PostgresPipeline {
  run<R>(query: CompiledQuery<R>): Promise<QueryResult<R>>;
  /** Ends its connections; a statement after it is refused. */
  end(): Promise<void>;
}

/** Connections the pipelined statements share: two, as many as the machine's cores the measurements ran on. */
const PIPELINE_CONNECTIONS = 2;

/** The commands whose row count Kysely gives as `numAffectedRows` (as its PostgreSQL driver does). */
const WRITE_COMMANDS = new Set(['INSERT', 'UPDATE', 'DELETE', 'MERGE']);

interface Lane {
  client: Promise<pg.Client>;
  /**
   * The socket pg writes the lane's statements to: made here and handed to pg through its `stream` option (a public
   * option since pg 8.9, a factory of the connection's socket), so that it can be corked without reaching into pg.
   */
  socket: Socket;
  inFlight: number;
  /** Its socket holds what is written until the current tick's end (one send for the tick's statements). */
  corked: boolean;
}

/**
 * pg writes each statement to the socket on its own (a `write` a statement, each woken up for on PostgreSQL's side):
 * the statements a tick puts on a lane (the requests an answer read resumed) are sent together at its end instead
 * (db.test.ts counts the sends). Over TLS (`sslmode` in the URL) pg writes to a TLS socket it wraps around this one,
 * which writes to the connection's handle itself, so the cork holds nothing; that socket gathers by itself what comes
 * while its first write is under way (tried with Node 20: 32 writes in one tick, 2 writes to the TLS socket either way).
 */
function corkUntilTickEnd(lane: Lane): void {
  if (lane.corked) return;
  lane.corked = true;
  lane.socket.cork();
  process.nextTick(() => {
    lane.corked = false;
    lane.socket.uncork();
  });
}

export function postgresPipeline(config: pg.ClientConfig, size = PIPELINE_CONNECTIONS): PostgresPipeline {
  const lanes: Array<Lane | undefined> = Array.from({ length: size }, () => undefined);
  const opened = new Set<pg.Client>();
  let ended = false;
  const open = (index: number): Lane => {
    const socket = new Socket();
    const client = new pg.Client({ ...config, pipeline: true, stream: () => socket });
    opened.add(client);
    const lane: Lane = { client: client.connect().then(() => client), socket, inFlight: 0, corked: false };
    // A connection that fails (a restart of the server, a terminated backend) fails the statements in flight on it, as
    // a pooled one would; the next statement opens a new one.
    const drop = (): void => {
      if (lanes[index] === lane) lanes[index] = undefined;
      opened.delete(client);
      client.end().catch(() => undefined);
    };
    client.on('error', drop);
    client.on('end', drop);
    lane.client.catch(drop);
    lanes[index] = lane;
    return lane;
  };
  const pick = (): Lane => {
    let best = lanes[0] ?? open(0);
    for (let index = 1; index < size; index += 1) {
      const lane = lanes[index] ?? open(index);
      if (lane.inFlight < best.inFlight) best = lane;
    }
    return best;
  };
  return {
    async run<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> {
      if (ended) throw new Error('the database is closed');
      const lane = pick();
      lane.inFlight += 1;
      try {
        const client = await lane.client;
        corkUntilTickEnd(lane);
        const { command, rowCount, rows } = await runNamedStatement(client, statementName(query.sql), query.sql, [
          ...query.parameters,
        ]);
        return {
          numAffectedRows: WRITE_COMMANDS.has(command) ? BigInt(rowCount ?? 0) : undefined,
          rows: (rows ?? []) as R[],
        };
      } finally {
        lane.inFlight -= 1;
      }
    },
    async end() {
      ended = true;
      await Promise.all([...opened].map((client) => client.end().catch(() => undefined)));
    },
  };
}

/** The pipeline of each PostgreSQL database (the Kysely instance over its pool; its transactions are other objects). */
const pipelines = new WeakMap<object, PostgresPipeline>();

export function registerPostgresPipeline(db: object, pipeline: PostgresPipeline): void {
  pipelines.set(db, pipeline);
}

/** Runs a statement on `db`'s pipeline, or undefined when `db` has none (SQLite, a transaction). */
export function runPipelined<R>(db: object, query: CompiledQuery<R>): Promise<QueryResult<R>> | undefined {
  return pipelines.get(db)?.run(query);
}
