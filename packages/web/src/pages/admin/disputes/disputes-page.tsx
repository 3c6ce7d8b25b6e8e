import { useState } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { AdminDispute, DisputeDetail } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import type { Column } from '../parts/data-table.tsx';
import { formatListDateTime } from '../parts/format.ts';
import { StatusBadge } from '../parts/status-badge.tsx';
import { DisputeChangeDialog, disputeName, disputeWords, EvidenceDialog } from './dispute-dialogs.tsx';
import { FilteredListPage } from '../lists/filtered-list-page.tsx';

const STATUSES = ['open', 'accepted', 'disputed', 'expired', 'won', 'lost'] as const;

type DisputeAction = 'accept' | 'evidence' | 'finalize';

function columns(onAction: (dispute: AdminDispute, action: DisputeAction) => void): Column<AdminDispute>[] {
  const button = (dispute: AdminDispute, action: DisputeAction, label: string, name: string) => (
    <button type="button" className="secondary small" aria-label={name} onClick={() => onAction(dispute, action)}>
      {label}
    </button>
  );
  return [
    {
      header: adminMessages.amount,
      cell: (d) => (
        <Link to={`/admin/disputes/${d.id}`} className="row-link" label={adminMessages.openDispute(disputeName(d))}>
          {formatMoney(d.amount)}
        </Link>
      ),
      className: 'numeric',
    },
    {
      header: adminMessages.status,
      cell: (d) => (
        <>
          <span className="cell-title">
            <StatusBadge status={d.status} label={disputeWords(d.status)} />
          </span>
          <span className="cell-detail muted">{`${disputeWords(d.kind)}, ${disputeWords(d.reason)}`}</span>
        </>
      ),
    },
    {
      header: adminMessages.payment,
      cell: (d) => (
        <>
          <span className="cell-title">
            {d.payment === null ? (
              <span className="muted">{adminMessages.notOurPayment}</span>
            ) : (
              <Link to={`/admin/payments/${d.payment.id}`}>{adminMessages.orderNumber(d.payment.orderNumber)}</Link>
            )}
          </span>
          <span className="cell-detail muted">{d.customer?.email ?? adminMessages.dash}</span>
        </>
      ),
      className: 'wrap-wide',
    },
    { header: adminMessages.updated, cell: (d) => formatListDateTime(d.updatedAt), className: 'date' },
    {
      header: adminMessages.actions,
      // Only an open dispute can be answered; the gateway decides the rest.
      cell: (d) =>
        d.status === 'open' ? (
          <span className="row-actions">
            {button(d, 'evidence', adminMessages.addEvidence, adminMessages.addEvidenceOf(disputeName(d)))}
            {button(d, 'finalize', adminMessages.submitEvidence, adminMessages.submitEvidenceOf(disputeName(d)))}
            {button(d, 'accept', adminMessages.acceptDispute, adminMessages.acceptDisputeOf(disputeName(d)))}
          </span>
        ) : null,
      className: 'actions',
    },
  ];
}

/** The sentence that says what an action did. */
function noticeOf(action: DisputeAction, detail: DisputeDetail): string {
  const name = disputeName(detail.dispute);
  if (action === 'accept') return adminMessages.disputeAccepted(name);
  if (action === 'evidence') return adminMessages.evidenceAdded(detail.evidence.length, name);
  return adminMessages.disputeSubmitted(name, disputeWords(detail.dispute.status));
}

/**
 * Chargebacks as the gateway reported them, newest report first; an open one can be answered with evidence, its
 * evidence submitted, or accepted, each after a dialog.
 */
export function DisputesPage() {
  const [acting, setActing] = useState<{ dispute: AdminDispute; action: DisputeAction } | null>(null);
  const [notice, setNotice] = useState('');
  const [version, setVersion] = useState(0);
  const done = (action: DisputeAction) => (detail: DisputeDetail) => {
    setActing(null);
    setNotice(noticeOf(action, detail));
    setVersion((current) => current + 1);
  };
  return (
    <FilteredListPage
      name="disputes"
      title={adminMessages.disputesTitle}
      filter={{ param: 'status', values: STATUSES, label: disputeWords }}
      notice={notice}
      version={version}
      load={async (params) => {
        const page = await adminApi.disputes(params);
        return { rows: page.disputes, nextCursor: page.nextCursor };
      }}
      caption={adminMessages.disputesCaption}
      columns={columns((dispute, action) => {
        setNotice('');
        setActing({ dispute, action });
      })}
      rowKey={(d) => d.id}
      empty={adminMessages.noDisputes}
    >
      {acting !== null &&
        (acting.action === 'evidence' ? (
          <EvidenceDialog dispute={acting.dispute} onClose={() => setActing(null)} onDone={done('evidence')} />
        ) : (
          <DisputeChangeDialog
            action={acting.action}
            dispute={acting.dispute}
            onClose={() => setActing(null)}
            onDone={done(acting.action)}
          />
        ))}
    </FilteredListPage>
  );
}
