import { api } from '../../api/client.ts';
import type { Order } from '../../api/types.ts';
import { useLoad } from '../../api/use-load.ts';
import { formatMoney } from '../../format/money.ts';
import { messages } from '../../i18n/messages.ts';
import { Link } from '../../router.tsx';
import { AccountLayout } from './account-layout.tsx';
import { LoadFailed } from '../../layout/load-failed.tsx';

const placedOn = new Intl.DateTimeFormat('en', { dateStyle: 'medium' });

/** The order history: every order of the account, newest first, each with its receipt or a way to pay it. */
export function OrdersPage() {
  return (
    <AccountLayout title={messages.ordersTitle}>
      <OrderList />
    </AccountLayout>
  );
}

function OrderList() {
  const loaded = useLoad(() => api.orders(), 'orders');
  if (loaded.status === 'loading') return <p>{messages.loading}</p>;
  if (loaded.status === 'failed') return <LoadFailed problem={loaded.problem} retry={loaded.retry} />;
  const { orders } = loaded.data;
  if (orders.length === 0) {
    return (
      <div className="account-empty card">
        <p>{messages.ordersEmpty}</p>
        <Link to="/" className="button primary">
          {messages.browseShop}
        </Link>
      </div>
    );
  }
  return (
    <ul className="account-list">
      {orders.map((order) => (
        <OrderRow key={order.id} order={order} />
      ))}
    </ul>
  );
}

function OrderRow({ order }: { order: Order }) {
  const items = order.items.map((item) => `${item.name} × ${item.quantity}`).join(', ');
  return (
    <li className="account-row card">
      <div className="account-row-main">
        <h2 className="account-row-title">{messages.receiptOrderNumber(order.number)}</h2>
        <p className="muted">{`${placedOn.format(new Date(order.createdAt))} · ${items}`}</p>
      </div>
      <div className="account-row-side">
        <span
          className="badge"
          data-tone={order.status === 'paid' ? 'success' : order.status === 'pending' ? 'attention' : 'neutral'}
        >
          {messages.orderStatus[order.status] ?? order.status}
        </span>
        <span className="account-row-amount">{formatMoney(order.total)}</span>
        {order.status === 'pending' ? (
          <Link to={`/checkout/${order.id}`} label={messages.orderPayLink(order.number)}>
            {messages.payNow}
          </Link>
        ) : (
          <Link to={`/orders/${order.id}/receipt`} label={messages.orderReceiptLink(order.number)}>
            {messages.receiptPageTitle}
          </Link>
        )}
      </div>
    </li>
  );
}
