import { useState } from 'react';
import { api } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import { cart } from '../../cart/cart.ts';
import { formatMoney } from '../../format/money.ts';
import { messages, problemMessage } from '../../i18n/messages.ts';

export function ShopPage() {
  const catalogue = useLoad(api.catalogue, 'catalogue');
  const [added, setAdded] = useState<string | null>(null);

  return (
    <section aria-labelledby="shop-title">
      <h1 id="shop-title">{messages.shopTitle}</h1>
      <p className="status" role="status">
        {added ? messages.addedToCart(added) : ''}
      </p>
      {catalogue.status === 'loading' && <p>{messages.loading}</p>}
      {catalogue.status === 'failed' && <p role="alert">{problemMessage(catalogue.problem)}</p>}
      {catalogue.status === 'ready' && (
        <ul className="product-grid">
          {catalogue.data.products.map((product) => (
            <li key={product.id} className="product-card">
              <h2>{product.name}</h2>
              <p>{product.description}</p>
              <p className="price">{formatMoney(product.price)}</p>
              <button
                type="button"
                aria-label={`${messages.addToCart}: ${product.name}`}
                onClick={() => {
                  cart.add(product.id);
                  setAdded(product.name);
                }}
              >
                {messages.addToCart}
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
