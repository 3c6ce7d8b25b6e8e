import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * How often the worker copies the write-ahead log into the database. Each checkpoint flushes both files and copies
 * every page changed since the last (the hot ones, counts and keys, again and again): every 100 ms it cost 1.1-1.3 ms of
 * the worker's CPU per payment at about 10 payments a second (one checkpoint per payment); a second is about SQLite's
 * own 1,000 frames at 30 payments a second, and fewer checkpoints than that above it.
 */
const CHECKPOINT_INTERVAL_MS = 1000;

/**
 * The main connection's own automatic checkpoint while the worker runs: a bound on the log, not the usual way. Under
 * steady writes the worker's checkpoints never catch up with the log's end (frames keep coming while one runs), and
 * SQLite starts the log over only once a checkpoint has copied all of it; past this many frames (about 40 MB) the
 * main connection's next commit copies the little the worker left and the log starts over (about every 300 payments).
 */
export const WAL_FRAMES_BOUND = 10_000;

/** SQLite's default automatic checkpoint, put back if the worker stops. */
const SQLITE_DEFAULT_AUTOCHECKPOINT = 1000;

// The worker: a connection of its own to the same file, `PRAGMA wal_checkpoint(PASSIVE)` on a timer (it waits for no
// reader or writer: it copies what it can). At synchronous=NORMAL SQLite flushes the log before it copies and the
// database after, in this thread. Plain CommonJS, so it runs as is however the server itself is run (tsx or built).
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const db = new Database(workerData.file);
db.pragma('synchronous = NORMAL');
db.pragma('busy_timeout = 0');
const timer = setInterval(() => db.pragma('wal_checkpoint(PASSIVE)'), workerData.intervalMs);
parentPort.on('message', () => {
  clearInterval(timer);
  db.close();
  parentPort.close();
});
`;

/**
 * Copies an SQLite database's write-ahead log into its file from a worker thread, so the event loop does not: the
 * automatic checkpoint ran in the commit that crossed 1,000 frames (about 29 payments), copying the log and flushing
 * both files with better-sqlite3 holding the event loop (5 writes took 730-940 µs of wall time with it, 212-321 µs
 * without). `setAutocheckpoint` sets the main connection's own (WAL_FRAMES_BOUND while the worker runs; SQLite's
 * default again if the worker fails, so the log stays bounded whatever happens).
 */
export function startCheckpointer(file: string, setAutocheckpoint: (frames: number) => void): { close: () => Promise<void> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, intervalMs: CHECKPOINT_INTERVAL_MS } });
  worker.unref();
  setAutocheckpoint(WAL_FRAMES_BOUND);
  let closing = false;
  const stopped = new Promise<void>((resolve) => {
    const fallBack = (): void => {
      if (!closing) setAutocheckpoint(SQLITE_DEFAULT_AUTOCHECKPOINT);
      resolve();
    };
    worker.once('error', fallBack);
    worker.once('exit', fallBack);
  });
  return {
    close: async () => {
      closing = true;
      worker.postMessage('close');
      await stopped;
    },
  };
}
