import type Database from 'better-sqlite3';
import { FILE_FORMAT } from './json-file.ts';

// The tables of a sandbox state (sqlite-store.ts reads and writes them; file-store.ts opens and upgrades files).
//
// Version 4: `records(collection, id, seq, value)` one row per record, `seq` its insertion order, `value` its JSON
// (json-codec.ts); `record_keys(collection, name, value, seq, id)` each record's declared keys (store.ts), indexed so
// that a record is found by key, and records in a key's range in order, without reading the others; `meta` the format,
// the version and, per collection, the names of the keys its rows hold (`keys/<collection>`).
// Version 3 (issue 10's first store, read whole into memory at start) had no keys and ordered `seq` across
// collections; it is upgraded in place when opened (upgradeFrom3), its keys indexed as each collection is declared.

export const FILE_VERSION = 4;
const FIRST_SQLITE_VERSION = 3;

const KEYS_SCHEMA = `
  CREATE TABLE record_keys (collection TEXT NOT NULL, name TEXT NOT NULL, value NOT NULL, seq INTEGER NOT NULL, id TEXT NOT NULL, PRIMARY KEY (collection, name, value, seq, id)) WITHOUT ROWID;
  CREATE INDEX record_keys_of ON record_keys (collection, id);
`;

export function createSchema(db: Database.Database): void {
  db.exec(`
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    CREATE TABLE records (collection TEXT NOT NULL, id TEXT NOT NULL, seq INTEGER NOT NULL, value TEXT NOT NULL, PRIMARY KEY (collection, id));
    CREATE INDEX records_in_order ON records (collection, seq);
    ${KEYS_SCHEMA}
  `);
  db.prepare('INSERT INTO meta (key, value) VALUES (?, ?), (?, ?)').run('format', FILE_FORMAT, 'version', String(FILE_VERSION));
}

/** The file's format and version, or why it is not a sandbox state file of a version this code reads. */
export function checkVersion(db: Database.Database): { version: number } | { problem: string } {
  let meta: Map<string, string>;
  try {
    meta = new Map(
      db
        .prepare<[], { key: string; value: string }>("SELECT key, value FROM meta WHERE key IN ('format', 'version')")
        .all()
        .map((row) => [row.key, row.value]),
    );
  } catch (error) {
    return { problem: `no sandbox state in this SQLite file: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (meta.get('format') !== FILE_FORMAT) return { problem: `"format" is not "${FILE_FORMAT}"` };
  const version = Number(meta.get('version'));
  if (version !== FILE_VERSION && version !== FIRST_SQLITE_VERSION)
    return { problem: `unsupported version ${meta.get('version')}, expected ${FILE_VERSION}` };
  return { version };
}

/** Version 3 -> 4, in one transaction: the keys' table, insertion order per collection. */
export function upgradeFrom3(db: Database.Database): void {
  db.transaction(() => {
    db.exec(`
      DROP INDEX records_in_order;
      CREATE INDEX records_in_order ON records (collection, seq);
      ${KEYS_SCHEMA}
    `);
    db.prepare("UPDATE meta SET value = ? WHERE key = 'version'").run(String(FILE_VERSION));
  })();
}
