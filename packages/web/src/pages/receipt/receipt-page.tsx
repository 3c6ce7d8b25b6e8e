import { api } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import { messages } from '../../i18n/messages.ts';
import { OrderLines } from '../../orders/order-lines.tsx';
import { Link } from '../../router.tsx';
import { LoadFailed } from '../../layout/load-failed.tsx';

const placedOn = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

export function ReceiptPage({ orderId }: { orderId: string }) {
  const loaded = useLoad(() => api.order(orderId), orderId);
  if (loaded.status === 'loading') return <p>{messages.loading}</p>;
  if (loaded.status === 'failed') return <LoadFailed problem={loaded.problem} retry={loaded.retry} />;
  const { order } = loaded.data;
  const payment = order.payment;
  return (
    <section aria-labelledby="receipt-title" className="receipt card">
      <svg className="receipt-check" viewBox="0 0 48 48" width="48" height="48" aria-hidden="true" focusable="false">
        <circle cx="24" cy="24" r="24" fill="currentColor" />
        <path d="M14 25l7 7 13-15" fill="none" strokeWidth="4" strokeLinecap="round" strokeLinejoin="round" />
      </svg>
      <h1 id="receipt-title">{messages.receiptTitle}</h1>
      <p className="receipt-number">{messages.receiptOrderNumber(order.number)}</p>
      <p className="muted">{messages.receiptPlacedOn(placedOn.format(new Date(order.createdAt)))}</p>
      <OrderLines order={order} />
      {payment?.status === 'succeeded' && (
        <>
          <p className="receipt-card">{messages.receiptPaidWith(payment.card.brand, payment.card.lastFour)}</p>
          <p className="fine-print">{messages.receiptTransaction(payment.transactionId)}</p>
        </>
      )}
      <Link to="/">{messages.continueShopping}</Link>
    </section>
  );
}
