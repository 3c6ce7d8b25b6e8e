import type { ReactNode } from 'react';
import type { Column } from '../parts/data-table.tsx';
import { PagedTable } from '../parts/paged-table.tsx';
import { useQueryState } from '../parts/query.ts';
import { StatusFilter } from './status-filter.tsx';

/** The one choice a list is filtered by (a status, a kind), kept in the query string under `param`. */
export interface ListFilter {
  param: string;
  values: readonly string[];
  label?: (value: string) => string;
  /** The control's label and its "any" choice, when the list is filtered by something other than a status. */
  title?: string;
  allLabel?: string;
}

/**
 * A list page the server pages by cursor, filtered by one choice: the heading and the filter, an optional intro and
 * notice line (what an action on a row did), the table, and what the page shows over it (`children`: a dialog).
 */
export function FilteredListPage<Row>({
  name,
  title,
  filter,
  intro,
  notice,
  version,
  load,
  caption,
  columns,
  rowKey,
  empty,
  children,
}: {
  /** Names the section's ids: `${name}-title`, `${name}-${filter.param}`. */
  name: string;
  title: string;
  filter: ListFilter;
  intro?: string;
  notice?: string;
  /** Raised by the page after it changed a row: the same page loads again. */
  version?: number;
  load: (params: URLSearchParams) => Promise<{ rows: Row[]; nextCursor: string | null }>;
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  empty: string;
  children?: ReactNode;
}) {
  const query = useQueryState();
  const value = query.get(filter.param);
  const cursor = query.get('cursor');
  return (
    <section aria-labelledby={`${name}-title`} className="admin-section">
      <header className="admin-header">
        <h1 id={`${name}-title`}>{title}</h1>
        <StatusFilter
          id={`${name}-${filter.param}`}
          statuses={filter.values}
          value={value}
          label={filter.label}
          title={filter.title}
          allLabel={filter.allLabel}
          onChange={(next) => query.set({ [filter.param]: next })}
        />
      </header>
      {intro !== undefined && <p className="muted section-intro">{intro}</p>}
      {notice !== undefined && (
        <p role="status" className="notice">
          {notice}
        </p>
      )}
      <PagedTable
        key={value}
        version={version}
        params={new URLSearchParams({ ...(value === '' ? {} : { [filter.param]: value }), ...(cursor === '' ? {} : { cursor }) })}
        load={load}
        onPage={(next) => query.set({ cursor: next }, { keepCursor: true })}
        caption={caption}
        columns={columns}
        rowKey={rowKey}
        empty={empty}
      />
      {children}
    </section>
  );
}
