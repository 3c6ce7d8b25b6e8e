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

export function encodeValue(value: unknown, where: string): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new UnsupportedValueError(where, describe(value));
    return value;
  }
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) throw new UnsupportedValueError(where, 'an invalid Date');
    return { [DATE_TAG]: value.toISOString() };
  }
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) => {
      if (item === undefined) throw new UnsupportedValueError(`${where}[${index}]`, 'undefined in an array');
      return encodeValue(item, `${where}[${index}]`);
    });
  }
  if (typeof value === 'object') {
    const prototype: unknown = Object.getPrototypeOf(value);
    if (prototype !== Object.prototype && prototype !== null) throw new UnsupportedValueError(where, describe(value));
    const encoded: Record<string, JsonValue> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (inner === undefined) continue;
      put(encoded, key.startsWith('$') ? `$${key}` : key, encodeValue(inner, `${where}.${key}`));
    }
    return encoded;
  }
  throw new UnsupportedValueError(where, describe(value));
}

/** The inverse of encodeValue; throws (with the path) on anything encodeValue cannot have written. */
export function decodeValue(value: unknown, where: string): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`${where}: not a finite number`);
    return value;
  }
  if (Array.isArray(value)) return value.map((item: unknown, index) => decodeValue(item, `${where}[${index}]`));
  if (typeof value === 'object') {
    const entries = Object.entries(value);
    const [first] = entries;
    if (first !== undefined && first[0] === DATE_TAG) {
      const date = typeof first[1] === 'string' ? new Date(first[1]) : null;
      if (entries.length !== 1 || date === null || Number.isNaN(date.getTime())) throw new Error(`${where}: bad ${DATE_TAG}`);
      return date;
    }
    const decoded: Record<string, unknown> = {};
    for (const [key, inner] of entries) {
      if (key.startsWith('$') && !key.startsWith('$$')) throw new Error(`${where}: unknown tag "${key}"`);
      put(decoded, key.startsWith('$') ? key.slice(1) : key, decodeValue(inner, `${where}.${key}`));
    }
    return decoded;
  }
  throw new Error(`${where}: not JSON`);
}
