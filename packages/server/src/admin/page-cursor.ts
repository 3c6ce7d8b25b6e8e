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
