import { describe, expect, it } from 'vitest';
import { matchRoute } from './router.tsx';

describe('matchRoute', () => {
  it('matches the root with or without a trailing slash', () => {
    expect(matchRoute('/', '/')).toEqual({});
    expect(matchRoute('/cart', '/cart/')).toEqual({});
  });

  it('extracts and decodes parameters', () => {
    expect(matchRoute('/checkout/:orderId', '/checkout/ord_a%20b')).toEqual({ orderId: 'ord_a b' });
    expect(matchRoute('/orders/:orderId/receipt', '/orders/ord_1/receipt')).toEqual({ orderId: 'ord_1' });
  });

  it('refuses other paths', () => {
    expect(matchRoute('/checkout/:orderId', '/checkout')).toBeNull();
    expect(matchRoute('/cart', '/carts')).toBeNull();
    expect(matchRoute('/', '/cart')).toBeNull();
  });
});
