import { useEffect, type ReactNode } from 'react';
import { messages } from './i18n/messages.ts';
import { Layout } from './layout/layout.tsx';
import { AdminPage } from './pages/admin/admin-page.tsx';
import { SignInPage, SignUpPage } from './pages/account/account-pages.tsx';
import { CartPage } from './pages/cart/cart-page.tsx';
import { CheckoutPage } from './pages/checkout/checkout-page.tsx';
import { ReceiptPage } from './pages/receipt/receipt-page.tsx';
import { ShopPage } from './pages/shop/shop-page.tsx';
import { matchRoute, usePath } from './router.tsx';

interface Route {
  pattern: string;
  /** The document title, so tabs, history and screen readers can tell the pages apart. */
  title: string;
  render: (params: Record<string, string>) => ReactNode;
}

const routes: Route[] = [
  { pattern: '/', title: messages.shopTitle, render: () => <ShopPage /> },
  { pattern: '/cart', title: messages.cartTitle, render: () => <CartPage /> },
  { pattern: '/checkout/:orderId', title: messages.checkoutTitle, render: ({ orderId = '' }) => <CheckoutPage key={orderId} orderId={orderId} /> },
  { pattern: '/orders/:orderId/receipt', title: messages.receiptPageTitle, render: ({ orderId = '' }) => <ReceiptPage orderId={orderId} /> },
  { pattern: '/sign-in', title: messages.signIn, render: () => <SignInPage /> },
  { pattern: '/sign-up', title: messages.signUp, render: () => <SignUpPage /> },
  { pattern: '/admin', title: messages.adminTitle, render: () => <AdminPage /> },
];

const notFound: Route = { pattern: '', title: messages.notFound, render: () => <h1>{messages.notFound}</h1> };

export function App() {
  const path = usePath();
  let page: ReactNode = null;
  let route = notFound;
  for (const candidate of routes) {
    const params = matchRoute(candidate.pattern, path);
    if (params) {
      route = candidate;
      page = candidate.render(params);
      break;
    }
  }
  useEffect(() => {
    document.title = messages.documentTitle(route.title);
  }, [route.title]);
  return <Layout>{page ?? notFound.render({})}</Layout>;
}
