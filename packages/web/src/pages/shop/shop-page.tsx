import { useState } from 'react';
import { api } from '../../api/client.ts';
import { useLoad } from '../../api/use-load.ts';
import { cart } from '../../cart/cart.ts';
import { productImage } from '../../catalogue/product-image.ts';
import { formatMoney } from '../../format/money.ts';
import { messages } from '../../i18n/messages.ts';
import { LoadFailed } from '../../layout/load-failed.tsx';

export function ShopPage() {
  const catalogue = useLoad(api.catalogue, 'catalogue');
  const [added, setAdded] = useState<string | null>(null);

  return (
    <div className="shop-page">
      <section className="hero" aria-labelledby="shop-title">
        <h1 id="shop-title">{messages.shopHeadline}</h1>
        <p className="hero-intro">{messages.shopIntro}</p>
      </section>
      <p className="status" role="status">
        {added ? messages.addedToCart(added) : ''}
      </p>
      <section aria-labelledby="products-title">
        <h2 id="products-title" className="visually-hidden">
          {messages.productsTitle}
        </h2>
        {catalogue.status === 'loading' && <p>{messages.loading}</p>}
        {catalogue.status === 'failed' && <LoadFailed problem={catalogue.problem} retry={catalogue.retry} />}
        {catalogue.status === 'ready' && (
          <ul className="product-grid">
            {catalogue.data.products.map((product) => (
              <li key={product.id} className="product-card">
                <img className="product-image" src={productImage(product.id)} alt="" width="320" height="240" />
                <div className="product-body">
                  <h3>{product.name}</h3>
                  <p className="product-description">{product.description}</p>
                  <div className="product-buy">
                    <p className="price">{formatMoney(product.price)}</p>
                    <button
                      type="button"
                      className="secondary"
                      aria-label={`${messages.addToCart}: ${product.name}`}
                      onClick={() => {
                        cart.add(product.id);
                        setAdded(product.name);
                      }}
                    >
                      {messages.addToCart}
                    </button>
                  </div>
                </div>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}
