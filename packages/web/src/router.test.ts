import { describe, expect, it } from 'vitest';
import { matchRoute, returnPath } from './router.tsx';

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

describe('returnPath', () => {
  it('returns to a path of this site', () => {
    expect(returnPath('?return=%2Fcheckout%2Ford_1')).toBe('/checkout/ord_1');
  });

  it('goes to the shop for anything that could leave the site, or nothing at all', () => {
    for (const search of [
      '',
      '?return=',
      '?return=https%3A%2F%2Fevil.example',
      '?return=%2F%2Fevil.example',
      '?return=%2F%5Cevil.example',
      '?return=javascript%3Aalert(1)',
    ]) {
      expect(returnPath(search), search).toBe('/');
    }
  });
});
