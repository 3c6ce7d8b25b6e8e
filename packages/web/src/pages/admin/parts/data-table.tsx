import { useId, type ReactNode } from 'react';

export interface Column<Row> {
  header: string;
  cell: (row: Row) => ReactNode;
  /** `numeric` (right-aligned figures), `hide-narrow` (left out on a phone), `nowrap`, `date` (two lines on a phone). */
  className?: string;
}

/**
 * A list as a table: a caption for screen readers, a scrolling region a keyboard can reach when it is wider than a
 * phone, and an empty state in place of an empty table.
 */
export function DataTable<Row>({
  caption,
  columns,
  rows,
  rowKey,
  empty,
}: {
  caption: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty: string;
}) {
  const captionId = useId();
  if (rows.length === 0) return <p className="empty-note card">{empty}</p>;
  return (
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than a phone scrolls sideways; keyboard users scroll it by focusing it
    <div className="table-card card" role="region" aria-labelledby={captionId} tabIndex={0}>
      <table className="data-table">
        <caption id={captionId} className="visually-hidden">
          {caption}
        </caption>
        <thead>
          <tr>
            {columns.map((column) => (
              <th key={column.header} scope="col" className={column.className}>
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={rowKey(row)}>
              {columns.map((column) => (
                <td key={column.header} className={column.className}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
