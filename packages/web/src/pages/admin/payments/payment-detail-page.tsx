import { useState } from 'react';
import { adminApi } from '../../../api/admin-client.ts';
import type { AdminPayment, PaymentDetail, RefundDone } from '../../../api/types.gen.ts';
import { useLoad } from '../../../api/use-load.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { Link } from '../../../router.tsx';
import { formatDateTime, paymentStatusLabel } from '../parts/format.ts';
import { DetailHeader, DetailLoadFailed, Facts } from '../parts/detail-page.tsx';
import { StatusBadge } from '../parts/status-badge.tsx';
import { GiveBackDialog, type GiveBack } from './give-back-dialog.tsx';
import { paymentsListPath } from './last-list.ts';
import { Timeline } from './timeline.tsx';

/** What may still be given back: the server decides, these only choose which buttons to offer. */
function offers(detail: PaymentDetail, refundable: number): { refund: boolean; void: boolean } {
  const { status, settlementStatus } = detail.payment;
  const charged = status === 'succeeded' || status === 'partially_refunded';
  return {
    refund: charged && refundable > 0,
    // Before settlement, with nothing refunded: the provider's rule for a void.
    void:
      status === 'succeeded' &&
      detail.refunds.length === 0 &&
      settlementStatus === null &&
      detail.timeline.gatewayStatus !== 'settled',
  };
}

export function PaymentDetailPage({ paymentId }: { paymentId: string }) {
  const back = { to: paymentsListPath(), label: adminMessages.backToPayments };
  const [version, setVersion] = useState(0);
  const [dialog, setDialog] = useState<GiveBack | null>(null);
  const [notice, setNotice] = useState('');
  const loaded = useLoad(() => adminApi.payment(paymentId), `${paymentId}:${version}`);

  if (loaded.status === 'loading' && version === 0) return <p className="status">{adminMessages.working}</p>;
  if (loaded.status === 'failed') return <DetailLoadFailed back={back} problem={loaded.problem} retry={loaded.retry} />;
  if (loaded.status === 'loading') return <p className="status">{adminMessages.working}</p>;
  const detail = loaded.data;
  const { payment } = detail;
  const refunded = detail.refunds
    .filter((refund) => refund.kind === 'refund')
    .reduce((sum, refund) => sum + refund.amount.amount, 0);
  const refundable = payment.status === 'voided' ? 0 : payment.amount.amount - refunded;
  const can = offers(detail, refundable);

  function done(result: RefundDone): void {
    setDialog(null);
    setNotice(
      result.refund.kind === 'void' ? adminMessages.voidDone : adminMessages.refundDone(formatMoney(result.refund.amount)),
    );
    setVersion((value) => value + 1);
  }

  return (
    <section aria-labelledby="payment-title" className="admin-section">
      <DetailHeader
        back={back}
        eyebrow={adminMessages.paymentTitle}
        titleId="payment-title"
        amount={payment.amount}
        status={{ status: payment.status, label: paymentStatusLabel(payment.status) }}
        about={`${adminMessages.orderNumber(payment.order.number)} · ${payment.customer?.email ?? adminMessages.guest} · ${formatDateTime(payment.createdAt)}`}
        actions={
          <>
            {can.refund && (
              <button type="button" className="secondary" onClick={() => setDialog('refund')}>
                {adminMessages.refund}
              </button>
            )}
            {can.void && (
              <button type="button" className="secondary" onClick={() => setDialog('void')}>
                {adminMessages.voidPayment}
              </button>
            )}
          </>
        }
        notice={notice}
      />
      <div className="detail-layout">
        <section aria-labelledby="timeline-title" className="card detail-card">
          <h2 id="timeline-title">{adminMessages.timeline}</h2>
          {!detail.timeline.gatewayAnswered && payment.transactionId !== null && (
            <p className="fine-print">{adminMessages.gatewayUnreachable}</p>
          )}
          <Timeline detail={detail} />
        </section>
        <section aria-labelledby="details-title" className="card detail-card">
          <h2 id="details-title">{adminMessages.paymentDetails}</h2>
          <PaymentFacts detail={detail} refunded={refunded} refundable={refundable} />
        </section>
      </div>
      {detail.attempts.length > 1 && <Attempts attempts={detail.attempts} current={payment.id} />}
      {detail.disputes.length > 0 && (
        <section aria-labelledby="payment-disputes-title" className="card detail-card">
          <h2 id="payment-disputes-title">{adminMessages.disputesOnPayment}</h2>
          <ul className="plain-list">
            {detail.disputes.map((dispute) => (
              <li key={dispute.id}>
                <StatusBadge status={dispute.status} />{' '}
                <Link to={`/admin/disputes/${dispute.id}`}>{formatMoney(dispute.amount)}</Link> ·{' '}
                {dispute.reason.replaceAll('_', ' ')} · {formatDateTime(dispute.updatedAt)}
              </li>
            ))}
          </ul>
        </section>
      )}
      {dialog !== null && (
        <GiveBackDialog kind={dialog} payment={payment} refundable={refundable} onClose={() => setDialog(null)} onDone={done} />
      )}
    </section>
  );
}

function PaymentFacts({ detail, refunded, refundable }: { detail: PaymentDetail; refunded: number; refundable: number }) {
  const { payment, timeline } = detail;
  const currency = payment.amount.currency;
  const settlement =
    payment.settlementStatus !== null
      ? (adminMessages.settlementStatus[payment.settlementStatus] ?? payment.settlementStatus)
      : payment.status === 'succeeded' || payment.status === 'partially_refunded' || payment.status === 'refunded'
        ? adminMessages.notSettledYet
        : adminMessages.noSettlement;
  const facts: [string, string][] = [
    [adminMessages.paymentId, payment.id],
    [adminMessages.order, adminMessages.orderNumber(payment.order.number)],
    [adminMessages.customer, payment.customer?.email ?? adminMessages.guest],
    [
      adminMessages.paymentMethod,
      payment.card === null ? adminMessages.dash : adminMessages.cardEnding(payment.card.brand, payment.card.lastFour),
    ],
    [adminMessages.settlement, settlement],
    [adminMessages.gatewayStatus, timeline.gatewayStatus?.replaceAll('_', ' ') ?? adminMessages.dash],
    [
      adminMessages.threeDSecure,
      payment.threeDSecure === null
        ? adminMessages.threeDSecureNone
        : adminMessages.threeDSecureOutcome(payment.threeDSecure.status, payment.threeDSecure.liabilityShifted),
    ],
    [adminMessages.refundedSoFar, formatMoney({ amount: refunded, currency })],
    [adminMessages.refundable, formatMoney({ amount: refundable, currency })],
    [adminMessages.transactionId, payment.transactionId ?? adminMessages.dash],
  ];
  if (payment.decline !== null)
    facts.push([
      adminMessages.declineReason,
      payment.decline.processorResponseText ?? payment.decline.reason.replaceAll('_', ' '),
    ]);
  return <Facts facts={facts} />;
}

function Attempts({ attempts, current }: { attempts: AdminPayment[]; current: string }) {
  return (
    <section aria-labelledby="attempts-title" className="card detail-card">
      <h2 id="attempts-title">{adminMessages.attemptsTitle}</h2>
      <ul className="plain-list">
        {attempts.map((attempt) => (
          <li key={attempt.id}>
            {attempt.id === current ? (
              <strong>{formatDateTime(attempt.createdAt)}</strong>
            ) : (
              <Link to={`/admin/payments/${attempt.id}`}>{formatDateTime(attempt.createdAt)}</Link>
            )}{' '}
            <StatusBadge status={attempt.status} label={paymentStatusLabel(attempt.status)} />{' '}
            {attempt.decline?.processorResponseText ?? ''}
          </li>
        ))}
      </ul>
    </section>
  );
}
