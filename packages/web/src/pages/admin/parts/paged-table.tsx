import { useLoad } from '../../../api/use-load.ts';
import { adminMessages, adminProblemMessage } from '../../../i18n/admin-messages.ts';
import { LoadFailed } from '../../../layout/load-failed.tsx';
import { DataTable, type Column } from './data-table.tsx';
import { Pager, usePager } from './pager.tsx';

/**
 * One page of a list the server pages by cursor: loads it for the filters and cursor in `params`, shows it as a table
 * with Previous and Next. Key it by the filters, so new filters start again from the first page.
 */
export function PagedTable<Row>({
  params,
  load,
  onPage,
  caption,
  columns,
  rowKey,
  empty,
  version = 0,
}: {
  params: URLSearchParams;
  load: (params: URLSearchParams) => Promise<{ rows: Row[]; nextCursor: string | null }>;
  onPage: (cursor: string | null) => void;
  caption: string;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  empty: string;
  /** Raised by the page after it changed a row (a subscription canceled): the same page loads again. */
  version?: number;
}) {
  const pager = usePager(onPage);
  const loaded = useLoad(() => load(params), `${params}#${version}`);
  if (loaded.status === 'loading') return <p className="status">{adminMessages.working}</p>;
  if (loaded.status === 'failed')
    return <LoadFailed problem={loaded.problem} retry={loaded.retry} describe={adminProblemMessage} />;
  return (
    <>
      <DataTable caption={caption} columns={columns} rows={loaded.data.rows} rowKey={rowKey} empty={empty} />
      <Pager pager={pager} current={params.get('cursor')} nextCursor={loaded.data.nextCursor} />
    </>
  );
}
