import { api } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { OrderLines } from '../../orders/order-lines.tsx';
import { Link } from '../../router.tsx';

export function ReceiptPage({ orderId }: { orderId: string }) {
  const loaded = useLoad(() => api.order(orderId), orderId);
  if (loaded.status === 'loading') return <p>{messages.loading}</p>;
  if (loaded.status === 'failed') return <p role="alert">{problemMessage(loaded.problem)}</p>;
  const { order } = loaded.data;
  const payment = order.payment;
  return (
    <section aria-labelledby="receipt-title" className="receipt">
      <h1 id="receipt-title">{messages.receiptTitle}</h1>
      <p>{messages.receiptOrder(order.id)}</p>
      <OrderLines order={order} />
      {payment?.status === 'succeeded' && <p>{messages.receiptPaidWith(payment.card.brand, payment.card.lastFour)}</p>}
      {payment?.status === 'succeeded' && <p className="muted">{messages.receiptTransaction(payment.transactionId)}</p>}
      <Link to="/">{messages.continueShopping}</Link>
    </section>
  );
}
