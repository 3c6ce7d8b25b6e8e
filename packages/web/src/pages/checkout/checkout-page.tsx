import { useEffect, useState } from 'react';
import { Checkout, type CheckoutInstance } from '@kassa/checkout';
import { api } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import type { Order } from '../../api/types.ts';
import { formatMoney } from '../../format/money.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { OrderLines } from '../../orders/order-lines.tsx';
import { Link, navigate } from '../../router.tsx';
import { usePayment } from './use-payment.ts';

async function loadCheckout(orderId: string) {
  const { order } = await api.order(orderId);
  const session = order.status === 'pending' ? await api.checkoutSession(orderId) : undefined;
  return { order, session };
}

export function CheckoutPage({ orderId }: { orderId: string }) {
  const loaded = useLoad(() => loadCheckout(orderId), orderId);
  const [instance, setInstance] = useState<CheckoutInstance | null>(null);
  const session = loaded.status === 'ready' ? loaded.data.session : undefined;
  const payment = usePayment(orderId, session?.botcheck);

  useEffect(() => {
    if (payment.state.step === 'paid') navigate(`/orders/${orderId}/receipt`, { replace: true });
  }, [payment.state.step, orderId]);

  if (loaded.status === 'loading') return <p>{messages.loading}</p>;
  if (loaded.status === 'failed') return <p role="alert">{problemMessage(loaded.problem)}</p>;
  const { order } = loaded.data;
  if (!session) {
    return (
      <p role="status">
        {messages.orderPaidAlready} <Link to={`/orders/${orderId}/receipt`}>{messages.viewReceipt}</Link>
      </p>
    );
  }

  const busy = payment.state.step !== 'idle';
  const error = payment.state.step === 'idle' ? payment.state.error : undefined;
  return (
    <div className="checkout-page">
      <h1>{messages.checkoutTitle}</h1>
      <OrderSummary order={order} />
      <section aria-labelledby="payment-title" className="payment-panel">
        <h2 id="payment-title">{messages.paymentTitle}</h2>
        <Checkout
          authorization={session.clientToken}
          // The card stays in the form until the payment's outcome is known: after a network error or a failed
          // bot-check Pay again works as it is; after a decline the payment flow clears it.
          options={{ cardholderName: session.checkout.cardholderName, locale: 'en', clearFieldsAfterTokenization: false }}
          onReady={setInstance}
          onInputSubmitRequest={() => instance && payment.pay(instance)}
        />
        <div className="payment-feedback" role="alert">
          {error}
        </div>
        <p className="status" role="status">
          {payment.state.step === 'botcheck' ? messages.checkingYouAreHuman : ''}
        </p>
        <button
          type="button"
          className="primary pay-button"
          disabled={!instance || busy}
          aria-busy={busy}
          onClick={() => instance && payment.pay(instance)}
        >
          {busy ? messages.paying : messages.pay(formatMoney(session.amount))}
        </button>
      </section>
    </div>
  );
}

function OrderSummary({ order }: { order: Order }) {
  return (
    <section aria-labelledby="summary-title" className="order-summary">
      <h2 id="summary-title">{messages.orderSummary}</h2>
      <OrderLines order={order} />
    </section>
  );
}
