import { useState } from 'react';
import { adminMessages } from '../../../i18n/admin-messages.ts';

/**
 * Cursor pagination: the server hands the next page's cursor; the cursors of the pages before are kept here, so
 * Previous goes back without the server counting offsets. `onPage(null)` is the first page.
 */
export function usePager(onPage: (cursor: string | null) => void) {
  const [previous, setPrevious] = useState<(string | null)[]>([]);
  return {
    page: previous.length + 1,
    hasPrevious: previous.length > 0,
    next(current: string | null, nextCursor: string) {
      setPrevious([...previous, current]);
      onPage(nextCursor);
    },
    back() {
      const before = previous.at(-1) ?? null;
      setPrevious(previous.slice(0, -1));
      onPage(before);
    },
    reset() {
      setPrevious([]);
    },
  };
}

export function Pager({
  pager,
  current,
  nextCursor,
}: {
  pager: ReturnType<typeof usePager>;
  current: string | null;
  nextCursor: string | null;
}) {
  if (!pager.hasPrevious && nextCursor === null) return null;
  return (
    <nav className="pager" aria-label={adminMessages.pagination}>
      <span className="pager-page">{adminMessages.pageNumber(pager.page)}</span>
      <button type="button" className="secondary small" disabled={!pager.hasPrevious} onClick={() => pager.back()}>
        {adminMessages.previousPage}
      </button>
      <button
        type="button"
        className="secondary small"
        disabled={nextCursor === null}
        onClick={() => nextCursor !== null && pager.next(current, nextCursor)}
      >
        {adminMessages.nextPage}
      </button>
    </nav>
  );
}
