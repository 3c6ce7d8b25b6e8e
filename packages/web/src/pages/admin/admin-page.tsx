import { useEffect, useRef } from 'react';
import { useSession } from '../../account/session.ts';
import { adminMessages } from '../../i18n/admin-messages.ts';
import { messages } from '../../i18n/messages.ts';
import { Link, usePath } from '../../router.tsx';
import { ActivityPage } from './lists/activity-page.tsx';
import { CustomersPage } from './lists/customers-page.tsx';
import { DisputeDetailPage } from './disputes/dispute-detail-page.tsx';
import { DisputesPage } from './disputes/disputes-page.tsx';
import { RefusalsPage } from './lists/refusals-page.tsx';
import { SubscriptionsPage } from './lists/subscriptions-page.tsx';
import { OverviewPage } from './overview/overview-page.tsx';
import { PaymentDetailPage } from './payments/payment-detail-page.tsx';
import { PaymentsPage } from './payments/payments-page.tsx';
import '../../styles/admin.css';

export type AdminSection =
  | { name: 'overview' | 'payments' | 'subscriptions' | 'disputes' | 'customers' | 'refusals' | 'activity' }
  | { name: 'payment'; paymentId: string }
  | { name: 'dispute'; disputeId: string };

const SECTIONS = [
  { to: '/admin', label: adminMessages.overviewTitle },
  { to: '/admin/payments', label: adminMessages.paymentsTitle },
  { to: '/admin/subscriptions', label: adminMessages.subscriptionsTitle },
  { to: '/admin/disputes', label: adminMessages.disputesTitle },
  { to: '/admin/customers', label: adminMessages.customersTitle },
  { to: '/admin/refusals', label: adminMessages.refusalsTitle },
  { to: '/admin/activity', label: adminMessages.activityTitle },
] as const;

/** The merchant's dashboard: its own navigation beside the section shown; admins only (the server checks too). */
export function AdminPage({ section }: { section: AdminSection }) {
  const session = useSession();
  const path = usePath();
  const isAdmin = session.status !== 'loading' && session.account?.role === 'admin';
  // The section whose pages these are: /admin/payments/pay_… belongs to Payments.
  const currentSection =
    [...SECTIONS].reverse().find((item) => path === item.to || path.startsWith(`${item.to}/`))?.to ?? '/admin';
  // Narrower than 80rem the navigation is a row of tabs that scrolls on a phone: the current one is brought to its
  // middle, or a phone at Activity showed Overview, Payments and Subscriptions, with no sign of where it was. The row
  // alone scrolls (not the page, as scrollIntoView would).
  const tabs = useRef<HTMLUListElement>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the tab marked current (read from the page) follows the section
  useEffect(() => {
    const row = tabs.current;
    const current = row?.querySelector('[aria-current="page"]');
    if (!isAdmin || !row || !current) return;
    const tab = current.getBoundingClientRect();
    row.scrollLeft += tab.left - row.getBoundingClientRect().left - (row.clientWidth - tab.width) / 2;
  }, [currentSection, isAdmin]);
  if (session.status === 'loading') return <p className="status">{messages.loading}</p>;
  if (!isAdmin) {
    return (
      <section aria-labelledby="admin-title" className="account-form card">
        <h1 id="admin-title">{messages.adminTitle}</h1>
        <p>
          {adminMessages.adminOnly} <Link to="/sign-in?return=/admin">{messages.signIn}</Link>
        </p>
      </section>
    );
  }
  return (
    <div className="admin">
      <nav className="admin-nav" aria-label={adminMessages.dashboardNav}>
        <ul ref={tabs}>
          {SECTIONS.map((item) => (
            <li key={item.to}>
              <Link to={item.to} className="admin-nav-link" current={item.to === currentSection ? 'page' : undefined}>
                {item.label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <div className="admin-content">{renderSection(section)}</div>
    </div>
  );
}

function renderSection(section: AdminSection) {
  switch (section.name) {
    case 'overview':
      return <OverviewPage />;
    case 'payments':
      return <PaymentsPage />;
    case 'payment':
      return <PaymentDetailPage key={section.paymentId} paymentId={section.paymentId} />;
    case 'subscriptions':
      return <SubscriptionsPage />;
    case 'disputes':
      return <DisputesPage />;
    case 'dispute':
      return <DisputeDetailPage key={section.disputeId} disputeId={section.disputeId} />;
    case 'customers':
      return <CustomersPage />;
    case 'refusals':
      return <RefusalsPage />;
    case 'activity':
      return <ActivityPage />;
  }
}
