import Database from 'better-sqlite3';

/** A state file as stored: its version, and each collection's `[id, record]` pairs in order, records as JSON. */
export interface StoredState {
  version: number;
  collections: Record<string, Array<[string, unknown]>>;
}

/** Reads a sandbox state file (SQLite, store/file-store.ts) read-only, as a test or an attacker with the disk would. */
export function readStateFile(file: string): StoredState {
  const db = new Database(file, { readonly: true });
  try {
    const version = Number(db.prepare<[], { value: string }>("SELECT value FROM meta WHERE key = 'version'").get()?.value);
    const collections: StoredState['collections'] = {};
    for (const row of db
      .prepare<[], { collection: string; id: string; value: string }>('SELECT collection, id, value FROM records ORDER BY seq')
      .all()) {
      (collections[row.collection] ??= []).push([row.id, JSON.parse(row.value)]);
    }
    return { version, collections };
  } finally {
    db.close();
  }
}
