import { useState } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { AdminSubscription } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { ConfirmDialog } from '../../account/confirm-dialog.tsx';
import { useKeyedAction } from '../parts/dialog.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatDay } from '../parts/format.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { FilteredListPage } from './filtered-list-page.tsx';

const STATUSES = ['Active', 'Past Due', 'Pending', 'Canceled', 'Expired'] as const;
/** The statuses in which a subscription still bills, so it can be canceled. */
const CANCELABLE: ReadonlySet<string> = new Set(['Active', 'Past Due', 'Pending']);

const customerOf = (s: AdminSubscription) => s.customer?.email ?? adminMessages.unknownCustomer;

function columns(onCancel: (subscription: AdminSubscription) => void): Column<AdminSubscription>[] {
  return [
    {
      header: adminMessages.subscription,
      cell: (s) => (
        <>
          <span className="cell-title">{s.customer?.email ?? adminMessages.unknownCustomer}</span>
          <span className="cell-detail muted">{s.planName}</span>
        </>
      ),
    },
    { header: adminMessages.status, cell: (s) => <StatusBadge status={s.status} /> },
    { header: adminMessages.price, cell: (s) => formatMoney(s.price), className: 'numeric' },
    {
      header: adminMessages.nextBilling,
      cell: (s) => (s.nextBillingDate === null ? adminMessages.dash : formatDay(s.nextBillingDate)),
      className: 'nowrap',
    },
    {
      header: adminMessages.failures,
      cell: (s) =>
        s.failureCount === 0 ? adminMessages.dash : adminMessages.failedCharges(s.failureCount, formatMoney(s.balance)),
      className: 'hide-narrow',
    },
    { header: adminMessages.created, cell: (s) => formatDay(s.createdAt), className: 'nowrap hide-narrow' },
    {
      header: adminMessages.actions,
      cell: (s) =>
        CANCELABLE.has(s.status) ? (
          <button
            type="button"
            className="secondary small"
            aria-label={adminMessages.cancelSubscriptionOf(s.planName, customerOf(s))}
            onClick={() => onCancel(s)}
          >
            {adminMessages.cancelSubscription}
          </button>
        ) : null,
      className: 'actions',
    },
  ];
}

/** The subscriptions the gateway bills (it is their source of truth), filtered by status, paged; each can be canceled. */
export function SubscriptionsPage() {
  const [canceling, setCanceling] = useState<AdminSubscription | null>(null);
  const [notice, setNotice] = useState('');
  const [version, setVersion] = useState(0);
  return (
    <FilteredListPage
      name="subscriptions"
      title={adminMessages.subscriptionsTitle}
      filter={{ param: 'status', values: STATUSES }}
      notice={notice}
      version={version}
      load={async (params) => {
        const page = await adminApi.subscriptions(params);
        return { rows: page.subscriptions, nextCursor: page.nextCursor };
      }}
      caption={adminMessages.subscriptionsCaption}
      columns={columns((subscription) => {
        setNotice('');
        setCanceling(subscription);
      })}
      rowKey={(s) => s.id}
      empty={adminMessages.noSubscriptions}
    >
      {canceling !== null && (
        <CancelSubscriptionDialog
          subscription={canceling}
          onClose={() => setCanceling(null)}
          onDone={(canceled) => {
            setCanceling(null);
            setNotice(adminMessages.subscriptionCanceled(canceled.planName, customerOf(canceled)));
            setVersion((current) => current + 1);
          }}
        />
      )}
    </FilteredListPage>
  );
}

/** The question before a subscription is canceled; one Idempotency-Key per opening, so Confirm again is a retry. */
function CancelSubscriptionDialog({
  subscription,
  onClose,
  onDone,
}: {
  subscription: AdminSubscription;
  onClose: () => void;
  onDone: (canceled: AdminSubscription) => void;
}) {
  const { busy, error, confirm } = useKeyedAction(
    async (key) => (await adminApi.cancelSubscription(subscription.id, key)).subscription,
    onDone,
  );
  return (
    <ConfirmDialog
      title={adminMessages.cancelSubscriptionTitle}
      description={adminMessages.cancelSubscriptionIntro(subscription.planName, customerOf(subscription))}
      confirmLabel={busy ? adminMessages.working : adminMessages.confirmCancelSubscription}
      cancelLabel={adminMessages.keepSubscription}
      busy={busy}
      error={error}
      onConfirm={confirm}
      onCancel={onClose}
    />
  );
}
