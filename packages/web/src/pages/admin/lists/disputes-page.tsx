import { adminApi } from '../../../api/admin-client.ts';
import type { AdminDispute } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatDateTime } from '../parts/format.ts';
import { PagedTable } from '../parts/paged-table.tsx';
import { useQueryState } from '../parts/query.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { StatusFilter } from './status-filter.tsx';

const STATUSES = ['open', 'accepted', 'disputed', 'expired', 'won', 'lost'] as const;
const words = (text: string) => text.replaceAll('_', ' ');

const COLUMNS: Column<AdminDispute>[] = [
  { header: adminMessages.amount, cell: (d) => formatMoney(d.amount), className: 'numeric' },
  { header: adminMessages.status, cell: (d) => <StatusBadge status={d.status} label={words(d.status)} /> },
  { header: adminMessages.disputeReason, cell: (d) => words(d.reason) },
  {
    header: adminMessages.payment,
    cell: (d) =>
      d.payment === null ? (
        <span className="muted">{adminMessages.notOurPayment}</span>
      ) : (
        <Link to={`/admin/payments/${d.payment.id}`}>{adminMessages.orderNumber(d.payment.orderNumber)}</Link>
      ),
  },
  { header: adminMessages.customer, cell: (d) => d.customer?.email ?? adminMessages.dash, className: 'hide-narrow' },
  { header: adminMessages.disputeKind, cell: (d) => words(d.kind), className: 'hide-narrow' },
  { header: adminMessages.updated, cell: (d) => formatDateTime(d.updatedAt), className: 'nowrap' },
];

/** Chargebacks as the gateway's webhooks reported them, newest report first. */
export function DisputesPage() {
  const query = useQueryState();
  const status = query.get('status');
  const cursor = query.get('cursor');
  return (
    <section aria-labelledby="disputes-title" className="admin-section">
      <header className="admin-header">
        <h1 id="disputes-title">{adminMessages.disputesTitle}</h1>
        <StatusFilter
          id="disputes-status"
          statuses={STATUSES}
          value={status}
          label={words}
          onChange={(value) => query.set({ status: value })}
        />
      </header>
      <PagedTable
        key={status}
        params={new URLSearchParams({ ...(status === '' ? {} : { status }), ...(cursor === '' ? {} : { cursor }) })}
        load={async (params) => {
          const page = await adminApi.disputes(params);
          return { rows: page.disputes, nextCursor: page.nextCursor };
        }}
        onPage={(next) => query.set({ cursor: next }, { keepCursor: true })}
        caption={adminMessages.disputesCaption}
        columns={COLUMNS}
        rowKey={(d) => d.id}
        empty={adminMessages.noDisputes}
      />
    </section>
  );
}
