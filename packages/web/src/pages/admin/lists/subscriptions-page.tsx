import { adminApi } from '../../../api/admin-client.ts';
import type { AdminSubscription } from '../../../api/types.gen.ts';
import { useLoad } from '../../../api/use-load.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages, adminProblemMessage } from '../../../i18n/admin-messages.ts';
import { DataTable, type Column } from '../parts/data-table.tsx';
import { formatDateTime, formatDay } from '../parts/format.ts';
import { useQueryState } from '../parts/query.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { StatusFilter } from './status-filter.tsx';

const STATUSES = ['Active', 'Past Due', 'Pending', 'Canceled', 'Expired'] as const;

const COLUMNS: Column<AdminSubscription>[] = [
  { header: adminMessages.customer, cell: (s) => s.customer?.email ?? <span className="muted">{adminMessages.dash}</span> },
  { header: adminMessages.status, cell: (s) => <StatusBadge status={s.status} /> },
  { header: adminMessages.plan, cell: (s) => s.planName, className: 'hide-narrow' },
  { header: adminMessages.price, cell: (s) => formatMoney(s.price), className: 'numeric' },
  {
    header: adminMessages.nextBilling,
    cell: (s) => (s.nextBillingDate === null ? adminMessages.dash : formatDay(s.nextBillingDate)),
    className: 'nowrap',
  },
  { header: adminMessages.failures, cell: (s) => String(s.failureCount), className: 'numeric hide-narrow' },
  { header: adminMessages.balance, cell: (s) => formatMoney(s.balance), className: 'numeric hide-narrow' },
  { header: adminMessages.created, cell: (s) => formatDateTime(s.createdAt), className: 'nowrap hide-narrow' },
];

/** The subscriptions the gateway bills (it is their source of truth), filtered by status. */
export function SubscriptionsPage() {
  const query = useQueryState();
  const status = query.get('status');
  const loaded = useLoad(() => adminApi.subscriptions(new URLSearchParams(status === '' ? {} : { status })), status);
  return (
    <section aria-labelledby="subscriptions-title" className="admin-section">
      <header className="admin-header">
        <h1 id="subscriptions-title">{adminMessages.subscriptionsTitle}</h1>
        <StatusFilter
          id="subscriptions-status"
          statuses={STATUSES}
          value={status}
          onChange={(value) => query.set({ status: value })}
        />
      </header>
      {loaded.status === 'loading' && <p className="status">{adminMessages.working}</p>}
      {loaded.status === 'failed' && <p role="alert">{adminProblemMessage(loaded.problem)}</p>}
      {loaded.status === 'ready' && (
        <DataTable
          caption={adminMessages.subscriptionsCaption}
          columns={COLUMNS}
          rows={loaded.data.subscriptions}
          rowKey={(s) => s.id}
          empty={adminMessages.noSubscriptions}
        />
      )}
    </section>
  );
}
