import type { PaymentDetail, TimelineEvent } from '../../../api/types.gen.ts';
import { formatMoney } from '../../../format/money.ts';
import { adminMessages } from '../../../i18n/admin-messages.ts';
import { formatDateTime, paymentStatusLabel } from '../parts/format.ts';
import type { Tone } from '../parts/status-badge.tsx';

function describe(event: TimelineEvent, currentId: string): { text: string; tone: Tone } {
  switch (event.type) {
    case 'attempt': {
      // The attempt's own outcome: what was given back later has its own events.
      const outcome =
        event.status === 'partially_refunded' || event.status === 'refunded' || event.status === 'voided'
          ? 'succeeded'
          : event.status;
      return {
        text: adminMessages.timelineAttempt(paymentStatusLabel(outcome), event.paymentId === currentId),
        tone: outcome === 'declined' ? 'danger' : outcome === 'pending' ? 'warning' : 'success',
      };
    }
    case 'gateway_status':
      return {
        text: adminMessages.timelineGateway(event.status),
        tone: /declined|failed|rejected/.test(event.status) ? 'danger' : 'info',
      };
    case 'refund':
      return { text: adminMessages.timelineRefund(formatMoney(event.amount), event.actorEmail), tone: 'neutral' };
    case 'void':
      return { text: adminMessages.timelineVoid(formatMoney(event.amount), event.actorEmail), tone: 'neutral' };
    case 'webhook':
      return { text: adminMessages.timelineWebhook(event.kind), tone: 'neutral' };
    case 'dispute_action': {
      const what =
        event.evidenceKind === 'text' ? adminMessages.evidenceNote : adminMessages.evidenceDocument(event.documentName);
      return { text: adminMessages.timelineDispute[event.action](what, event.actorEmail), tone: 'warning' };
    }
  }
}

/** Everything that happened to the payment, newest first, as the dashboards merchants know show it. */
export function Timeline({ detail }: { detail: PaymentDetail }) {
  const events = [...detail.timeline.events].reverse();
  return (
    <ol className="timeline">
      {events.map((event, index) => {
        const { text, tone } = describe(event, detail.payment.id);
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: two events can share a type and a time; the list is rendered whole, never reordered
          <li key={`${event.type}-${event.at}-${index}`} className="timeline-event" data-tone={tone}>
            <span className="timeline-text">{text}</span>
            <span className="timeline-time">
              {adminMessages.timelineAt[event.type] ?? adminMessages.timelineInShop}{' '}
              <time dateTime={event.at}>{formatDateTime(event.at)}</time>
              {event.type === 'webhook' && (
                <>
                  {adminMessages.timelineReceived} <time dateTime={event.receivedAt}>{formatDateTime(event.receivedAt)}</time>
                </>
              )}
            </span>
          </li>
        );
      })}
    </ol>
  );
}
