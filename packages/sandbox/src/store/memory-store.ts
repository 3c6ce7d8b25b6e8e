import Database from 'better-sqlite3';
import { createSchema } from './schema.ts';
import { openSqliteStore } from './sqlite-store.ts';
import type { SqliteStore } from './sqlite-store.ts';

/**
 * Process-local store: everything disappears when the sandbox stops. The records live in a temporary SQLite database
 * (SQLite keeps it in its page cache and spills it to an unnamed temporary file), read on demand as the file store's
 * are, so a sandbox without a data file does not grow in memory with its state either. Nothing is synced, and the
 * rollback journal (what undoes a failed burst) is kept in memory.
 */
export function createMemoryStore(options: { cachedRecords?: number } = {}): SqliteStore {
  const db = new Database('');
  db.pragma('synchronous = OFF');
  // The rollback journal in memory too (a burst's original pages, bounded as the burst is): on its temporary file each
  // write of a burst created, wrote and truncated it, 21 pwrite calls a sale (issue 10: the writes took 2.3 times the CPU).
  db.pragma('journal_mode = MEMORY');
  createSchema(db);
  return openSqliteStore({
    database: db,
    create: () => db,
    ...options,
    onError: (error) => process.stderr.write(`sandbox: ${error.message} (will retry)\n`),
    writeError: (cause) => (cause instanceof Error ? cause : new Error(String(cause))),
    closedError: () => new Error('sandbox store: the store is closed'),
    closeDatabase: (database) => database.close(),
  });
}
