import { createHmac, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { decodeValue } from './json-codec.ts';
import { corrupt, errorMessage, FileStoreError } from './store-error.ts';

// The sandbox's state file as it was before issue 10: one JSON document, rewritten whole after each burst of changes
// (so a change cost more as the state grew). Only read now: file-store.ts converts such a file to its SQLite form
// when it opens it.
//
// File layout: {"format":"kassa-sandbox-state","version":2,"collections":{"<name>":[["<id>",<record>],...],...}}.
// Records are [id, record] pairs in insertion order; values went through json-codec.ts (Dates tagged).

export const FILE_FORMAT = 'kassa-sandbox-state';
/** The last version of the JSON file; the SQLite file is version 3. */
export const JSON_FILE_VERSION = 2;
/**
 * Version 1 files hold card number identifiers keyed by a key derived from the private key, which npm start keeps on
 * the same disk: with BIN and last four beside them, they give the card numbers back. Such a file is upgraded when
 * opened (and converted at once): every identifier is replaced by a hash of it under a random key that is then
 * forgotten, so cards that shared an identifier still do, and none can be traced back to its number.
 */
const REVERSIBLE_IDENTIFIERS_VERSION = 1;

/** Replaces, in place, every `uniqueNumberIdentifier` string under `value` (see REVERSIBLE_IDENTIFIERS_VERSION). */
function rekeyCardIdentifiers(value: unknown, key: Buffer): void {
  if (typeof value !== 'object' || value === null || value instanceof Date) return;
  if (Array.isArray(value)) {
    for (const item of value) rekeyCardIdentifiers(item, key);
    return;
  }
  const record = value as Record<string, unknown>;
  for (const [name, field] of Object.entries(record)) {
    if (name === 'uniqueNumberIdentifier' && typeof field === 'string') {
      record[name] = createHmac('sha256', key).update(field).digest('hex').slice(0, 32);
    } else {
      rekeyCardIdentifiers(field, key);
    }
  }
}

/** Collection name -> id -> record, in the file's order. */
export type StateCollections = Map<string, Map<string, unknown>>;

/** Reads a JSON state file (it exists): throws a FileStoreError naming it when it is not one. */
export function loadJsonStateFile(file: string): StateCollections {
  const collections: StateCollections = new Map();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new FileStoreError(file, `cannot read sandbox data file ${file}: ${errorMessage(error)}`, { cause: error });
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `not JSON: ${errorMessage(error)}`, error);
  }
  if (typeof document !== 'object' || document === null || Array.isArray(document)) throw corrupt(file, 'not a JSON object');
  const { format, version, collections: stored } = document as Record<string, unknown>;
  if (format !== FILE_FORMAT) throw corrupt(file, `"format" is not "${FILE_FORMAT}"`);
  const upgraded = version === REVERSIBLE_IDENTIFIERS_VERSION;
  if (version !== JSON_FILE_VERSION && !upgraded) {
    throw corrupt(file, `unsupported version ${JSON.stringify(version)}, expected ${JSON_FILE_VERSION}`);
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored))
    throw corrupt(file, '"collections" is not an object');
  for (const [name, entries] of Object.entries(stored)) {
    if (!Array.isArray(entries)) throw corrupt(file, `collection "${name}" is not an array`);
    const records = new Map<string, unknown>();
    for (const [index, entry] of (entries as unknown[]).entries()) {
      if (!Array.isArray(entry) || entry.length !== 2 || typeof entry[0] !== 'string') {
        throw corrupt(file, `collection "${name}" entry ${index} is not an [id, record] pair`);
      }
      const [id, record] = entry as [string, unknown];
      if (records.has(id)) throw corrupt(file, `collection "${name}" holds id "${id}" twice`);
      try {
        records.set(id, decodeValue(record, `${name}/${id}`));
      } catch (error) {
        throw corrupt(file, errorMessage(error), error);
      }
    }
    collections.set(name, records);
  }
  if (upgraded) {
    const forgotten = randomBytes(32);
    for (const records of collections.values()) rekeyCardIdentifiers([...records.values()], forgotten);
  }
  return collections;
}
