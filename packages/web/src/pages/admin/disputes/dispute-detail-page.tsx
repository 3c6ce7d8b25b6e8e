import { type ReactNode, useState } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { DisputeDetail } from '../../../api/types.gen.ts';
import { useLoad } from '../../../api/use-load.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import { formatDateTime, formatDay } from '../parts/format.ts';
import { DetailHeader, DetailLoadFailed, Facts } from '../parts/detail-page.tsx';
import { DisputeChangeDialog, disputeName, disputeWords, EvidenceDialog, RemoveEvidenceDialog } from './dispute-dialogs.tsx';
import { EvidenceList, evidenceItemName, type EvidenceItem } from './evidence-list.tsx';

const BACK = { to: '/admin/disputes', label: adminMessages.backToDisputes };

type Acting = { action: 'evidence' | 'accept' | 'finalize' } | { action: 'remove'; item: EvidenceItem };

/**
 * One dispute as the gateway has it now: what it is, the evidence answered so far (each item removable until the
 * evidence is submitted), and the merchant's answers (add evidence, submit it, accept), each after a dialog.
 */
export function DisputeDetailPage({ disputeId }: { disputeId: string }) {
  const [version, setVersion] = useState(0);
  const [acting, setActing] = useState<Acting | null>(null);
  const [notice, setNotice] = useState('');
  const loaded = useLoad(() => adminApi.dispute(disputeId), `${disputeId}:${version}`);

  if (loaded.status === 'failed') return <DetailLoadFailed back={BACK} problem={loaded.problem} retry={loaded.retry} />;
  if (loaded.status === 'loading') return <p className="status">{adminMessages.working}</p>;
  const { dispute, evidence, replyByDate } = loaded.data;
  const open = dispute.status === 'open';
  const name = disputeName(dispute);

  const done = (sentence: (detail: DisputeDetail) => string) => (detail: DisputeDetail) => {
    setActing(null);
    setNotice(sentence(detail));
    setVersion((value) => value + 1);
  };
  const act = (next: Acting) => {
    setNotice('');
    setActing(next);
  };

  const payment =
    dispute.payment === null ? (
      adminMessages.notOurPayment
    ) : (
      <Link to={`/admin/payments/${dispute.payment.id}`}>{adminMessages.orderNumber(dispute.payment.orderNumber)}</Link>
    );
  const facts: [string, ReactNode][] = [
    [adminMessages.replyBy, replyByDate === null ? adminMessages.dash : formatDay(replyByDate)],
    [adminMessages.disputeId, dispute.id],
    [adminMessages.disputeKind, disputeWords(dispute.kind)],
    [adminMessages.disputeReason, disputeWords(dispute.reason)],
    [adminMessages.disputedPayment, payment],
    [adminMessages.customer, dispute.customer?.email ?? adminMessages.dash],
    [adminMessages.transactionId, dispute.transactionId],
    [adminMessages.lastReported, formatDateTime(dispute.updatedAt)],
  ];

  return (
    <section aria-labelledby="dispute-title" className="admin-section">
      <DetailHeader
        back={BACK}
        eyebrow={adminMessages.disputeTitle}
        titleId="dispute-title"
        amount={dispute.amount}
        status={{ status: dispute.status, label: disputeWords(dispute.status) }}
        about={[
          disputeWords(dispute.kind),
          disputeWords(dispute.reason),
          dispute.payment === null ? adminMessages.notOurPayment : adminMessages.orderNumber(dispute.payment.orderNumber),
          ...(open && replyByDate !== null ? [adminMessages.replyByOn(formatDay(replyByDate))] : []),
        ].join(' · ')}
        actions={
          open && (
            <>
              <button type="button" className="secondary" onClick={() => act({ action: 'evidence' })}>
                {adminMessages.addEvidence}
              </button>
              <button type="button" className="secondary" onClick={() => act({ action: 'finalize' })}>
                {adminMessages.confirmSubmitEvidence}
              </button>
              <button type="button" className="secondary" onClick={() => act({ action: 'accept' })}>
                {adminMessages.acceptDispute}
              </button>
            </>
          )
        }
        notice={notice}
      />
      <div className="detail-layout">
        <section aria-labelledby="evidence-list-title" className="card detail-card">
          <h2 id="evidence-list-title">{adminMessages.evidenceListTitle}</h2>
          <p className="fine-print">{open ? adminMessages.evidenceListOpen : adminMessages.evidenceListClosed}</p>
          <EvidenceList evidence={evidence} onRemove={open ? (item) => act({ action: 'remove', item }) : null} />
          {evidence.length === 0 && <p className="muted">{open ? adminMessages.noEvidence : adminMessages.noEvidenceClosed}</p>}
        </section>
        <section aria-labelledby="dispute-details-title" className="card detail-card">
          <h2 id="dispute-details-title">{adminMessages.paymentDetails}</h2>
          <Facts facts={facts} />
        </section>
      </div>
      {acting?.action === 'evidence' && (
        <EvidenceDialog
          dispute={dispute}
          onClose={() => setActing(null)}
          onDone={done((detail) => adminMessages.evidenceAdded(detail.evidence.length, name))}
        />
      )}
      {(acting?.action === 'accept' || acting?.action === 'finalize') && (
        <DisputeChangeDialog
          action={acting.action}
          dispute={dispute}
          onClose={() => setActing(null)}
          onDone={done((detail) =>
            acting.action === 'accept'
              ? adminMessages.disputeAccepted(name)
              : adminMessages.disputeSubmitted(name, disputeWords(detail.dispute.status)),
          )}
        />
      )}
      {acting?.action === 'remove' && (
        <RemoveEvidenceDialog
          dispute={dispute}
          item={acting.item}
          onClose={() => setActing(null)}
          onDone={done(() => adminMessages.evidenceRemoved(evidenceItemName(acting.item)))}
        />
      )}
    </section>
  );
}
