import type { Money, Order } from '../api/types.ts';
import { productImage } from '../catalogue/product-image.ts';
import { formatMoney } from '../format/money.ts';
import { messages } from '../i18n/messages.ts';

/** What an order holds and what it costs, as the checkout and the receipt both show it. */
export function OrderLines({ order }: { order: Order }) {
  return (
    <>
      <ul className="line-items">
        {order.items.map((item) => (
          <li key={item.productId} className="line-item">
            <img className="line-item-image" src={productImage(item.productId)} alt="" width="56" height="42" />
            <span className="line-item-name">
              {item.name}
              <span className="line-item-detail">{`${item.quantity} × ${formatMoney(item.unitPrice)}`}</span>
            </span>
            <span className="line-item-amount">{formatMoney(item.total)}</span>
          </li>
        ))}
      </ul>
      <Totals total={order.total} />
    </>
  );
}

/** Subtotal, shipping (the demo shop ships for free) and the total, as the cart and the orders show them. */
export function Totals({ total }: { total: Money }) {
  return (
    <dl className="totals">
      <div>
        <dt>{messages.subtotal}</dt>
        <dd>{formatMoney(total)}</dd>
      </div>
      <div>
        <dt>{messages.shipping}</dt>
        <dd>{messages.shippingFree}</dd>
      </div>
      <div className="totals-total">
        <dt>{messages.total}</dt>
        <dd>{formatMoney(total)}</dd>
      </div>
    </dl>
  );
}
