import type { ReactNode } from 'react';
import { messages } from './i18n/messages.ts';
import { Layout } from './layout/layout.tsx';
import { AdminPage } from './pages/admin/admin-page.tsx';
import { SignInPage, SignUpPage } from './pages/account/account-pages.tsx';
import { CartPage } from './pages/cart/cart-page.tsx';
import { CheckoutPage } from './pages/checkout/checkout-page.tsx';
import { ReceiptPage } from './pages/receipt/receipt-page.tsx';
import { ShopPage } from './pages/shop/shop-page.tsx';
import { matchRoute, usePath } from './router.tsx';

const routes: Array<{ pattern: string; render: (params: Record<string, string>) => ReactNode }> = [
  { pattern: '/', render: () => <ShopPage /> },
  { pattern: '/cart', render: () => <CartPage /> },
  { pattern: '/checkout/:orderId', render: ({ orderId = '' }) => <CheckoutPage key={orderId} orderId={orderId} /> },
  { pattern: '/orders/:orderId/receipt', render: ({ orderId = '' }) => <ReceiptPage orderId={orderId} /> },
  { pattern: '/sign-in', render: () => <SignInPage /> },
  { pattern: '/sign-up', render: () => <SignUpPage /> },
  { pattern: '/admin', render: () => <AdminPage /> },
];

export function App() {
  const path = usePath();
  for (const route of routes) {
    const params = matchRoute(route.pattern, path);
    if (params) return <Layout>{route.render(params)}</Layout>;
  }
  return (
    <Layout>
      <h1>{messages.notFound}</h1>
    </Layout>
  );
}
