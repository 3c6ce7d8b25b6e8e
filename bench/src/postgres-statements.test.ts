import { describe, expect, it } from 'vitest';
import { processName } from './postgres-statements.ts';

describe("PostgreSQL's processes by name (postgres-statements.ts processName)", () => {
  it("names a connection's backend by its client's address and port, less its state", () => {
    expect(processName('postgres: postgres kassa_test_59b8 127.0.0.1(53992) idle')).toBe('backend 127.0.0.1(53992)');
    expect(processName('postgres: postgres kassa_test_59b8 127.0.0.1(53992) UPDATE')).toBe('backend 127.0.0.1(53992)');
    expect(processName('postgres: postgres kassa_test_59b8 [local] idle')).toBe('backend [local]');
  });

  it('names every other process by its title: not a backend named after the third word of it', () => {
    // PostgreSQL 18's titles, as the bench's server shows them.
    for (const title of [
      'postgres: io worker 0',
      'postgres: logical replication launcher',
      'postgres: autovacuum launcher',
      'postgres: walwriter',
    ])
      expect(processName(title)).toBe(title);
  });
});
