import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A temp folder for a real SQLite file; `cleanup` removes it. */
export function tempSqliteFile(): { file: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'kassa-sqlite-'));
  return { file: join(dir, 'kassa.sqlite'), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
