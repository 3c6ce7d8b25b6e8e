import { createHash } from 'node:crypto';
import pg from 'pg';
import type { FieldDef, QueryResult } from 'pg';

const names = new Map<string, string>();

/** The name a compiled query's text is prepared under on each connection (a named statement lives as long as it). */
export function statementName(text: string): string {
  let name = names.get(text);
  if (name === undefined) {
    name = `kassa_${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
    names.set(text, name);
  }
  return name;
}

/**
 * A named prepared statement run through pg with less of pg's work per run (issue 10: in a profile of statements
 * alone, pg's `addFields` was 14% of the busy time and `cloneQueryConfig` 4%). pg describes the result of every run
 * again: for each column it looks up the type's parser and builds, as a dictionary-mode object, the empty row every
 * row is copied from. A named statement's columns are the same at every run, so what was built from its description
 * is kept, per statement, and used again when the description is the same (its columns' names, types and formats).
 * And a query handed to pg as a `Query` is not copied (`client.query(config)` copies a config object through its
 * property descriptors).
 *
 * pg's `Query` and `Result` have no public way to do this: it overrides `handleRowDescription` and sets the
 * `Result`'s parsers and empty row, pg 8's internals (package.json allows any 8.x, the lockfile holds 8.23.1: an
 * upgrade must pass db.test.ts, whose compiled queries read integers, texts and bigints through this on a real
 * PostgreSQL, also after a column's type changed, and the payments tests, which read the payments' rows through it).
 */
export function runNamedStatement(
  client: Pick<pg.PoolClient, 'query'>,
  name: string,
  text: string,
  values: unknown[],
): Promise<QueryResult> {
  return new Promise((resolve, reject) => {
    const query = new NamedStatementQuery(text, values, (error, result) =>
      error === undefined || error === null ? resolve(result as unknown as QueryResult) : reject(error),
    );
    query.name = name;
    client.query(query);
  });
}

/** What pg built from a statement's result description: each column's parser and the empty row. */
interface Described {
  fields: FieldDef[];
  parsers: unknown[];
  emptyRow: unknown;
}

/** By statement name: the statements are Kassa's compiled queries (db/prepared.ts), a few dozen. */
const described = new Map<string, Described>();

/** pg's Result, as far as this reads and sets it. */
interface PgResult {
  fields: FieldDef[];
  _parsers: unknown[] | undefined;
  _prebuiltEmptyResultObject: unknown;
}

class NamedStatementQuery extends pg.Query {
  declare name: string;
  declare _result: PgResult;
  declare _accumulateRows: boolean;

  handleRowDescription(message: { fields: FieldDef[] }): void {
    const known = described.get(this.name);
    if (known !== undefined && sameColumns(known.fields, message.fields)) {
      // What pg's handleRowDescription does, with what it built before: one result per statement, rows kept for the
      // callback.
      this._result.fields = message.fields;
      this._result._parsers = known.parsers;
      this._result._prebuiltEmptyResultObject = known.emptyRow;
      this._accumulateRows = true;
      return;
    }
    (pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }).handleRowDescription.call(this, message);
    const { _parsers: parsers, _prebuiltEmptyResultObject: emptyRow } = this._result;
    if (parsers !== undefined) described.set(this.name, { fields: message.fields, parsers, emptyRow });
  }
}

function sameColumns(known: FieldDef[], fields: FieldDef[]): boolean {
  if (known.length !== fields.length) return false;
  for (let i = 0; i < fields.length; i += 1) {
    const a = known[i];
    const b = fields[i];
    if (a === undefined || b === undefined) return false;
    if (a.name !== b.name || a.dataTypeID !== b.dataTypeID || a.format !== b.format) return false;
  }
  return true;
}
