import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { sandboxSample, sandboxSeedKey, withoutRandomTokens } from './seed-cache.ts';
import type { SeedSample } from './seed-cache.ts';

// The sandbox's seeded file is keyed by what a small seed writes (seed-cache.ts): a seed of a million payments takes
// about 2,300 s of CPU, and used to be made again after any change to the sandbox's code.

/** The small seed of sandboxSeedKey, then `change` done to its file. */
const changed =
  (change: (db: Database.Database) => void): SeedSample =>
  async (file, madeAt) => {
    await sandboxSample(file, madeAt);
    const db = new Database(file);
    try {
      change(db);
    } finally {
      db.close();
    }
  };

let key: string;
beforeAll(async () => {
  key = await sandboxSeedKey();
});

// Each key reads a small seed's files (about 0.3 s of CPU): at a load of 20 two of them took over vitest's 5 s.
describe("the sandbox seed's cache key", { timeout: 30_000 }, () => {
  it('numbers the values that differ between two runs, one that recurs under one number', () => {
    expect(
      withoutRandomTokens(
        '{"id":"ab12","of":"ab12","to":"x-1","amount":"10.50"}',
        '{"id":"zz99","of":"zz99","to":"y-2","amount":"10.50"}',
      ),
    ).toBe('{"id":"#1","of":"#1","to":"#2","amount":"10.50"}');
    expect(() => withoutRandomTokens('{"a":"1"}', '{"a":"1","b":"2"}')).toThrow('different shapes');
  });

  it("is the same for each run of the same code, whatever its random ids and keys, and whatever the file's layout", async () => {
    expect(await sandboxSeedKey()).toBe(key);
    // The same records rewritten into other pages: the key reads records, not bytes.
    expect(await sandboxSeedKey(changed((db) => db.exec('VACUUM')))).toBe(key);
  });

  it('changes with what a record holds, and with the schema of the file', async () => {
    const setText =
      "UPDATE records SET value = replace(value, '\"Approved\"', '\"Approved.\"') WHERE collection = 'transactions'";
    expect(await sandboxSeedKey(changed((db) => db.exec(setText)))).not.toBe(key);
    expect(await sandboxSeedKey(changed((db) => db.exec('CREATE INDEX records_by_value ON records (value)')))).not.toBe(key);
  });
});
