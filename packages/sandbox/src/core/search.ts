import { parseAmount } from './transactions.ts';

// The provider's advanced search criteria, as the SDK sends them (snake_case keys, see the SDK's advanced_search.js):
// text fields `{ is, is_not, starts_with, ends_with, contains }`, multiple-value fields `[values]` (or one value),
// range fields `{ min, max, is }` (amounts as decimal strings, dates as ISO or the provider's date-time text), key
// value fields `true/false`. Each searchable record type declares its fields here; an unknown criterion is refused
// (never silently ignored: a dashboard filter that did nothing would show wrong results).

// A field may name the collection's key (store.ts) that indexes it: a text field's `is` then looks the records up by
// that key (which holds the value in lower case), a date range reads the key's range; the criteria are still all
// checked on each record found, so an index only narrows what is read, never what matches.

export type SearchField<T> =
  | { kind: 'text'; values: (record: T) => readonly (string | null)[]; key?: string }
  | { kind: 'multiple'; values: (record: T) => readonly (string | null)[] }
  /** A multiple-value field that also takes text operators (subscription plan_id). */
  | { kind: 'multiple_or_text'; values: (record: T) => readonly (string | null)[] }
  | { kind: 'amount_range' | 'number_range'; value: (record: T) => string | Date | number | null }
  | { kind: 'date_range'; value: (record: T) => Date | string | null; key?: string }
  | { kind: 'boolean'; value: (record: T) => boolean }
  /** A field with a matcher of its own (credit card number: BIN and last four only). */
  | { kind: 'custom'; compile: (criterion: unknown) => ((record: T) => boolean) | null };

export type SearchFields<T> = Readonly<Record<string, SearchField<T>>>;

/** Where a search reads its candidates from, best first: the `ids` given, a key's value, a key's range, everything. */
export type SearchPlan =
  | { kind: 'ids'; ids: string[] }
  | { kind: 'key'; key: string; value: string }
  | { kind: 'range'; key: string; min: number; max: number }
  | { kind: 'all' };

export type CompiledSearch<T> = { ok: true; matches: (record: T) => boolean; plan: SearchPlan } | { ok: false; problem: string };

/** How a collection hands out a search's candidates (gateway.ts, over the store). */
export interface SearchSource<T> {
  byId(id: string): T | undefined;
  withKey(key: string, value: string): Iterable<T>;
  inRange(key: string, min: number, max: number): Iterable<T>;
  all(): Iterable<T>;
}

const PLAN_RANK: Readonly<Record<SearchPlan['kind'], number>> = { ids: 0, key: 1, range: 2, all: 3 };

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const TEXT_OPERATORS: Readonly<Record<string, (actual: string, wanted: string) => boolean>> = {
  is: (actual, wanted) => actual.toLowerCase() === wanted.toLowerCase(),
  is_not: (actual, wanted) => actual.toLowerCase() !== wanted.toLowerCase(),
  starts_with: (actual, wanted) => actual.toLowerCase().startsWith(wanted.toLowerCase()),
  ends_with: (actual, wanted) => actual.toLowerCase().endsWith(wanted.toLowerCase()),
  contains: (actual, wanted) => actual.toLowerCase().includes(wanted.toLowerCase()),
};

function textMatcher(criterion: unknown): ((values: readonly (string | null)[]) => boolean) | null {
  if (!isObject(criterion)) return null;
  const tests: Array<(values: readonly (string | null)[]) => boolean> = [];
  for (const [operator, wanted] of Object.entries(criterion)) {
    const test = TEXT_OPERATORS[operator];
    if (test === undefined || typeof wanted !== 'string') return null;
    tests.push(
      operator === 'is_not'
        ? (values) => values.every((value) => value === null || test(value, wanted))
        : (values) => values.some((value) => value !== null && test(value, wanted)),
    );
  }
  return (values) => tests.every((test) => test(values));
}

function multipleMatcher(criterion: unknown): ((values: readonly (string | null)[]) => boolean) | null {
  const wanted = Array.isArray(criterion) ? criterion : [criterion];
  if (!wanted.every((value) => typeof value === 'string' || typeof value === 'boolean' || typeof value === 'number')) return null;
  const set = new Set(wanted.map(String));
  return (values) => values.some((value) => value !== null && set.has(value));
}

function rangeBound(kind: 'amount_range' | 'date_range' | 'number_range', value: unknown): number | null {
  if (kind === 'amount_range') return parseAmount(value);
  if (kind === 'number_range')
    return typeof value === 'number' || (typeof value === 'string' && /^\d+$/.test(value)) ? Number(value) : null;
  const time = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isNaN(time) ? null : time;
}

function rangeValue(kind: 'amount_range' | 'date_range' | 'number_range', value: string | Date | number | null): number | null {
  if (value === null) return null;
  if (value instanceof Date) return value.getTime();
  if (typeof value === 'number') return value;
  return kind === 'amount_range' ? parseAmount(value) : Date.parse(value);
}

/** Date-only bounds ("2026-11-23") cover their whole day, as the provider reads them. */
function dayEnd(value: unknown, bound: number): number {
  return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? bound + 24 * 60 * 60 * 1000 - 1 : bound;
}

function rangeBounds(
  kind: 'amount_range' | 'date_range' | 'number_range',
  criterion: unknown,
): { min: number; max: number } | null {
  if (!isObject(criterion)) return null;
  let min = -Infinity;
  let max = Infinity;
  for (const [operator, raw] of Object.entries(criterion)) {
    const bound = rangeBound(kind, raw);
    if (bound === null) return null;
    if (operator === 'min') min = Math.max(min, bound);
    else if (operator === 'max') max = Math.min(max, kind === 'date_range' ? dayEnd(raw, bound) : bound);
    else if (operator === 'is') {
      min = Math.max(min, bound);
      max = Math.min(max, kind === 'date_range' ? dayEnd(raw, bound) : bound);
    } else return null;
  }
  return { min, max };
}

/** Turns the criteria into one predicate and a plan, or names the first criterion it cannot read. */
export function compileSearch<T>(fields: SearchFields<T>, criteria: unknown): CompiledSearch<T> {
  if (!isObject(criteria)) return { ok: true, matches: () => true, plan: { kind: 'all' } };
  const tests: Array<(record: T) => boolean> = [];
  let plan: SearchPlan = { kind: 'all' };
  const consider = (candidate: SearchPlan) => {
    if (PLAN_RANK[candidate.kind] < PLAN_RANK[plan.kind]) plan = candidate;
  };
  for (const [name, criterion] of Object.entries(criteria)) {
    const field = fields[name];
    const problem = { ok: false as const, problem: `search criterion "${name}" is not supported or malformed` };
    if (field === undefined) return problem;
    if (name === 'ids' && Array.isArray(criterion)) consider({ kind: 'ids', ids: criterion.map(String) });
    if (field.kind === 'text' && field.key !== undefined && isObject(criterion) && typeof criterion['is'] === 'string')
      consider({ kind: 'key', key: field.key, value: criterion['is'].toLowerCase() });
    switch (field.kind) {
      case 'text':
      case 'multiple':
      case 'multiple_or_text': {
        const matcher =
          field.kind === 'text' || (field.kind === 'multiple_or_text' && isObject(criterion))
            ? textMatcher(criterion)
            : multipleMatcher(criterion);
        if (matcher === null) return problem;
        tests.push((record) => matcher(field.values(record)));
        break;
      }
      case 'amount_range':
      case 'date_range':
      case 'number_range': {
        const bounds = rangeBounds(field.kind, criterion);
        if (bounds === null) return problem;
        const { min, max } = bounds;
        tests.push((record) => {
          const value = rangeValue(field.kind, field.value(record));
          return value !== null && value >= min && value <= max;
        });
        if (field.kind === 'date_range' && field.key !== undefined) consider({ kind: 'range', key: field.key, min, max });
        break;
      }
      case 'boolean': {
        const wanted = criterion === true || criterion === 'true';
        if (!wanted && criterion !== false && criterion !== 'false') return problem;
        tests.push((record) => field.value(record) === wanted);
        break;
      }
      case 'custom': {
        const matcher = field.compile(criterion);
        if (matcher === null) return problem;
        tests.push(matcher);
        break;
      }
    }
  }
  return { ok: true, matches: (record) => tests.every((test) => test(record)), plan };
}

/**
 * The ids of the records matching `search`, newest first (as the provider lists search results), ties in the order the
 * candidates came (insertion order, or the order of `ids`). Only the candidates of the search's plan are read, one at
 * a time; what is kept is each match's id and time.
 */
export function runSearch<T extends { id: string; createdAt: Date }>(
  search: Extract<CompiledSearch<T>, { ok: true }>,
  source: SearchSource<T>,
): string[] {
  const { plan } = search;
  const candidates: Iterable<T> =
    plan.kind === 'ids'
      ? plan.ids.map((id) => source.byId(id)).filter((record): record is T => record !== undefined)
      : plan.kind === 'key'
        ? source.withKey(plan.key, plan.value)
        : plan.kind === 'range'
          ? source.inRange(plan.key, plan.min, plan.max)
          : source.all();
  const found: Array<{ id: string; at: number }> = [];
  for (const record of candidates) if (search.matches(record)) found.push({ id: record.id, at: record.createdAt.getTime() });
  return found.sort((a, b) => b.at - a.at).map((match) => match.id);
}
