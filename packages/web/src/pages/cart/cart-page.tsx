import { useEffect, useState } from 'react';
import { api, ApiError } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import { cart, useCart } from '../../cart/cart.ts';
import { productImage } from '../../catalogue/product-image.ts';
import { formatMoney } from '../../format/money.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';
import { Totals } from '../../orders/order-lines.tsx';
import { Link, navigate } from '../../router.tsx';
import { useShopConfig } from '../../shop/shop-config.ts';
import { warmCardFields } from './warm-card-fields.ts';
import { LoadFailed } from '../../layout/load-failed.tsx';

export function CartPage() {
  const lines = useCart();
  const catalogue = useLoad(api.catalogue, 'catalogue');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // A cart that can go to the checkout has the gateway's card fields loaded ahead (warm-card-fields.ts).
  const cardFieldsPage = useShopConfig()?.cardFieldsPage ?? null;
  const hasLines = lines.length > 0;
  useEffect(() => (hasLines && cardFieldsPage !== null ? warmCardFields(cardFieldsPage) : undefined), [hasLines, cardFieldsPage]);

  if (catalogue.status === 'loading') return <p>{messages.loading}</p>;
  if (catalogue.status === 'failed') return <LoadFailed problem={catalogue.problem} retry={catalogue.retry} />;

  const products = new Map(catalogue.data.products.map((product) => [product.id, product]));
  const rows = lines.flatMap((line) => {
    const product = products.get(line.productId);
    return product ? [{ ...line, product }] : [];
  });
  // Only a display estimate: the server prices the order from its own catalogue.
  const currency = rows[0]?.product.price.currency ?? 'EUR';
  const estimate = rows.reduce((sum, row) => sum + row.product.price.amount * row.quantity, 0);

  async function checkout(): Promise<void> {
    setBusy(true);
    setError(null);
    try {
      const { order } = await api.createOrder(rows.map(({ productId, quantity }) => ({ productId, quantity })));
      cart.clear();
      navigate(`/checkout/${order.id}`);
    } catch (caught) {
      setError(caught instanceof ApiError ? problemMessage(caught.problem) : problemMessage({ status: 0, code: '' }));
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="cart-title" className="cart-page">
      <h1 id="cart-title">{messages.cartTitle}</h1>
      {rows.length === 0 ? (
        <div className="empty-state card">
          <p className="empty-state-title">{messages.cartEmpty}</p>
          <p className="muted">{messages.cartEmptyHint}</p>
          <Link to="/" className="button primary">
            {messages.browseShop}
          </Link>
        </div>
      ) : (
        <div className="cart-layout">
          <ul className="cart-lines card">
            {rows.map((row) => (
              <li key={row.productId} className="cart-line">
                <img className="cart-line-image" src={productImage(row.productId)} alt="" width="96" height="72" />
                <div className="cart-line-name">
                  <span className="cart-line-title">{row.product.name}</span>
                  <span className="muted">{messages.eachPrice(formatMoney(row.product.price))}</span>
                </div>
                <div className="cart-line-quantity">
                  <label className="visually-hidden" htmlFor={`quantity-${row.productId}`}>
                    {messages.quantityOf(row.product.name)}
                  </label>
                  <input
                    id={`quantity-${row.productId}`}
                    type="number"
                    inputMode="numeric"
                    min={0}
                    max={99}
                    value={row.quantity}
                    onChange={(event) => cart.setQuantity(row.productId, Math.min(99, Number(event.target.value) || 0))}
                  />
                  <button
                    type="button"
                    className="link-button"
                    aria-label={messages.removeItem(row.product.name)}
                    onClick={() => cart.setQuantity(row.productId, 0)}
                  >
                    {messages.remove}
                  </button>
                </div>
                <span className="cart-line-amount">
                  {formatMoney({ amount: row.product.price.amount * row.quantity, currency })}
                </span>
              </li>
            ))}
          </ul>
          <section className="cart-summary card" aria-labelledby="cart-summary-title">
            <h2 id="cart-summary-title">{messages.orderSummary}</h2>
            <Totals total={{ amount: estimate, currency }} />
            {error && <p role="alert">{error}</p>}
            <button type="button" className="primary wide" onClick={checkout} disabled={busy}>
              {messages.goToCheckout}
            </button>
            <p className="fine-print">{messages.pricesConfirmed}</p>
          </section>
        </div>
      )}
    </section>
  );
}
