// Records <-> JSON for the file store, explicitly (no JSON.stringify replacer guesswork): what core/ stores is plain
// data plus Dates (customers, transactions and their status history, the transaction results kept for
// apiRequestKey replays). Anything JSON would silently change or drop (Map, Set, bigint, NaN, class instances,
// functions, undefined in arrays) is refused with the path where it sits, so a record never comes back different.
//
// Encoding: a Date becomes {"$date": "<ISO 8601>"} (millisecond precision, as a Date holds). An object key that
// starts with "$" gets one more "$" ("$x" -> "$$x"), so a tag can never be confused with data. Object properties
// whose value is undefined are left out, as JSON.stringify does (`{ a: undefined }` comes back as `{}`).

export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

const DATE_TAG = '$date';

/** A value that cannot be stored as JSON without changing. */
export class UnsupportedValueError extends Error {
  constructor(
    readonly where: string,
    what: string,
  ) {
    super(`${where}: cannot persist ${what} (the store keeps plain data and Dates only)`);
    this.name = 'UnsupportedValueError';
  }
}

/**
 * Sets a property even when its name is "__proto__" (plain assignment would change the prototype instead); any other
 * name by plain assignment, which costs far less (every record read or stored goes through here).
 */
function put<V>(target: Record<string, V>, key: string, value: V): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}

function describe(value: unknown): string {
  if (typeof value === 'object' && value !== null) return `a ${value.constructor?.name ?? 'object'}`;
  if (typeof value === 'number') return String(value);
  return `a ${typeof value}`;
}

// Every record read or stored goes through these walks, so they build no path while they go (a string per property
// cost more than the rest of the walk): `path` holds the keys and indexes down to the current value, and `where`
// names it only when something is refused.

type Path = Array<string | number>;

function where(root: string, path: Path): string {
  return path.reduce<string>((text, step) => (typeof step === 'number' ? `${text}[${step}]` : `${text}.${step}`), root);
}

/**
 * The encoded form of `value`: the parts that hold no Date and no "$" key are the caller's own objects, not copies
 * (JSON.stringify turns them into the same text), so a record costs one walk and copies only the paths to its Dates.
 */
export function encodeValue(value: unknown, root: string): JsonValue {
  return encodeAt(value, root, []);
}

function encodeAt(value: unknown, root: string, path: Path): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnsupportedValueError(where(root, path), describe(value));
    return value;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new UnsupportedValueError(where(root, path), 'an invalid Date');
    return { [DATE_TAG]: value.toISOString() };
  }
  if (Array.isArray(value)) {
    let copy: JsonValue[] | null = null;
    for (let index = 0; index < value.length; index += 1) {
      const item: unknown = value[index];
      path.push(index);
      if (item === undefined) throw new UnsupportedValueError(where(root, path), 'undefined in an array');
      const encoded = encodeAt(item, root, path);
      path.pop();
      if (copy === null && encoded !== item) copy = value.slice(0, index) as JsonValue[];
      if (copy !== null) copy.push(encoded);
    }
    return copy ?? (value as JsonValue[]);
  }
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new UnsupportedValueError(where(root, path), describe(value));
    const record = value as Record<string, unknown>;
    const keys = Object.keys(record);
    let copy: Record<string, JsonValue> | null = null;
    for (let index = 0; index < keys.length; index += 1) {
      const key = keys[index] as string;
      const inner = record[key];
      // Left out, as JSON.stringify leaves it out of the object as it is.
      if (inner === undefined) continue;
      path.push(key);
      const encoded = encodeAt(inner, root, path);
      path.pop();
      const renamed = key.startsWith('$');
      if (copy === null && (encoded !== inner || renamed)) {
        copy = {};
        for (const earlier of keys.slice(0, index)) {
          const kept = record[earlier];
          if (kept !== undefined) put(copy, earlier, kept as JsonValue);
        }
      }
      if (copy !== null) put(copy, renamed ? `$${key}` : key, encoded);
    }
    return copy ?? (record as Record<string, JsonValue>);
  }
  throw new UnsupportedValueError(where(root, path), describe(value));
}

/**
 * The inverse of encodeValue, made in place on what JSON.parse has just given (the caller's own, never shared): the
 * Dates' tags are replaced, and an object with "$$" keys is rebuilt to keep its keys' order. Throws (with the path)
 * on anything encodeValue cannot have written.
 */
export function decodeValue(value: unknown, root: string): unknown {
  return decodeAt(value, root, []);
}

function decodeAt(value: unknown, root: string, path: Path): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${where(root, path)}: not a finite number`);
    return value;
  }
  if (typeof value !== 'object') throw new Error(`${where(root, path)}: not JSON`);
  if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index += 1) {
      path.push(index);
      value[index] = decodeAt(value[index], root, path);
      path.pop();
    }
    return value;
  }
  const record = value as Record<string, unknown>;
  const keys = Object.keys(record);
  if (keys[0] === DATE_TAG) {
    const text = record[DATE_TAG];
    const date = typeof text === 'string' ? new Date(text) : null;
    if (keys.length !== 1 || date === null || Number.isNaN(date.getTime()))
      throw new Error(`${where(root, path)}: bad ${DATE_TAG}`);
    return date;
  }
  let escaped = false;
  for (const key of keys) {
    if (key.startsWith('$')) {
      if (!key.startsWith('$$')) throw new Error(`${where(root, path)}: unknown tag "${key}"`);
      escaped = true;
    }
    const inner = record[key];
    path.push(key);
    const decoded = decodeAt(inner, root, path);
    path.pop();
    if (decoded !== inner) put(record, key, decoded);
  }
  if (!escaped) return record;
  const unescaped: Record<string, unknown> = {};
  for (const key of keys) put(unescaped, key.startsWith('$') ? key.slice(1) : key, record[key]);
  return unescaped;
}
