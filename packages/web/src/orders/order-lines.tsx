import type { Order } from '../api/types.ts';
import { formatMoney } from '../format/money.ts';
import { messages } from '../i18n/messages.ts';

/** What an order holds and what it costs, as the checkout and the receipt both show it. */
export function OrderLines({ order }: { order: Order }) {
  return (
    <>
      <ul className="order-lines">
        {order.items.map((item) => (
          <li key={item.productId}>
            <span>{`${item.quantity} × ${item.name}`}</span>
            <span>{formatMoney(item.total)}</span>
          </li>
        ))}
      </ul>
      <p className="cart-total">
        {messages.total}: <strong>{formatMoney(order.total)}</strong>
      </p>
    </>
  );
}
