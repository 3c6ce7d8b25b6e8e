import { lazy, Suspense, useEffect, type ReactNode } from 'react';
import { adminMessages } from './i18n/admin-messages.ts';
import { messages } from './i18n/messages.ts';
import { Layout } from './layout/layout.tsx';
import { ConfirmSignUpPage, SignInPage, SignUpPage } from './pages/account/account-pages.tsx';
import { OrdersPage } from './pages/account/orders-page.tsx';
import { PaymentMethodsPage } from './pages/account/payment-methods-page.tsx';
import { SubscriptionsPage } from './pages/account/subscriptions-page.tsx';
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

// The dashboard (and its chart library) loads only when an admin opens it: shoppers never download it.
const AdminPage = lazy(() => import('./pages/admin/admin-page.tsx').then((module) => ({ default: module.AdminPage })));

const routes: Route[] = [
  { pattern: '/', title: messages.shopTitle, render: () => <ShopPage /> },
  { pattern: '/cart', title: messages.cartTitle, render: () => <CartPage /> },
  {
    pattern: '/checkout/:orderId',
    title: messages.checkoutTitle,
    render: ({ orderId = '' }) => <CheckoutPage key={orderId} orderId={orderId} />,
  },
  {
    pattern: '/orders/:orderId/receipt',
    title: messages.receiptPageTitle,
    render: ({ orderId = '' }) => <ReceiptPage orderId={orderId} />,
  },
  { pattern: '/sign-in', title: messages.signIn, render: () => <SignInPage /> },
  { pattern: '/sign-up', title: messages.signUp, render: () => <SignUpPage /> },
  { pattern: '/verify-email', title: messages.confirmSignUpTitle, render: () => <ConfirmSignUpPage /> },
  { pattern: '/account', title: messages.ordersTitle, render: () => <OrdersPage /> },
  { pattern: '/account/payment-methods', title: messages.paymentMethodsTitle, render: () => <PaymentMethodsPage /> },
  { pattern: '/account/subscriptions', title: messages.subscriptionsTitle, render: () => <SubscriptionsPage /> },
  { pattern: '/admin', title: adminMessages.overviewTitle, render: () => <AdminPage section={{ name: 'overview' }} /> },
  { pattern: '/admin/payments', title: adminMessages.paymentsTitle, render: () => <AdminPage section={{ name: 'payments' }} /> },
  {
    pattern: '/admin/payments/:paymentId',
    title: adminMessages.paymentTitle,
    render: ({ paymentId = '' }) => <AdminPage section={{ name: 'payment', paymentId }} />,
  },
  {
    pattern: '/admin/subscriptions',
    title: adminMessages.subscriptionsTitle,
    render: () => <AdminPage section={{ name: 'subscriptions' }} />,
  },
  { pattern: '/admin/disputes', title: adminMessages.disputesTitle, render: () => <AdminPage section={{ name: 'disputes' }} /> },
  {
    pattern: '/admin/disputes/:disputeId',
    title: adminMessages.disputeTitle,
    render: ({ disputeId = '' }) => <AdminPage section={{ name: 'dispute', disputeId }} />,
  },
  {
    pattern: '/admin/customers',
    title: adminMessages.customersTitle,
    render: () => <AdminPage section={{ name: 'customers' }} />,
  },
  { pattern: '/admin/refusals', title: adminMessages.refusalsTitle, render: () => <AdminPage section={{ name: 'refusals' }} /> },
  { pattern: '/admin/activity', title: adminMessages.activityTitle, render: () => <AdminPage section={{ name: 'activity' }} /> },
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
  return (
    <Layout>
      <Suspense fallback={<p className="status">{messages.loading}</p>}>{page ?? notFound.render({})}</Suspense>
    </Layout>
  );
}
