import { type SelectQueryBuilder, sql } from 'kysely';
import { z } from 'zod';

/** Where a page of a list kept newest first ends: the last row's time and id (keyset pagination, no offsets). */
export interface PageCursor {
  at: string;
  id: string;
}

export function encodePageCursor(cursor: PageCursor): string {
  return Buffer.from(JSON.stringify([cursor.at, cursor.id])).toString('base64url');
}

const cursorShape = z.tuple([z.string(), z.string()]);

/** The cursor a client sends back, or null when it is not one we made. */
export function decodePageCursor(text: string): PageCursor | null {
  try {
    const parsed = cursorShape.safeParse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
    return parsed.success ? { at: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

/**
 * A list kept newest first, paged by cursor: the rows after `after` by (`at`, `id`) descending, one more than `limit`
 * so pageOf can tell whether another page follows. `at` and `id` are the columns as the query names them.
 */
export function newestFirstAfter<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  columns: { at: string; id: string },
  after: PageCursor | undefined,
  limit: number,
): SelectQueryBuilder<DB, TB, O> {
  const at = sql.ref(columns.at);
  const id = sql.ref(columns.id);
  const following =
    after === undefined
      ? query
      : query.where(sql<boolean>`(${at} < ${after.at} or (${at} = ${after.at} and ${id} < ${after.id}))`);
  return following
    .orderBy(at, 'desc')
    .orderBy(id, 'desc')
    .limit(limit + 1);
}

/** The page of `rows` (asked for one more than `limit`) and the cursor of the next one, null when it is the last. */
export function pageOf<Row>(
  rows: Row[],
  limit: number,
  cursorOf: (row: Row) => PageCursor,
): { page: Row[]; nextCursor: string | null } {
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return { page, nextCursor: rows.length > limit && last !== undefined ? encodePageCursor(cursorOf(last)) : null };
}
