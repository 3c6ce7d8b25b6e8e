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
  if (session.status === 'loading') return <p className="status">{messages.loading}</p>;
  if (session.account?.role !== 'admin') {
    return (
      <section aria-labelledby="admin-title" className="account-form card">
        <h1 id="admin-title">{messages.adminTitle}</h1>
        <p>
          {adminMessages.adminOnly} <Link to="/sign-in?return=/admin">{messages.signIn}</Link>
        </p>
      </section>
    );
  }
  // The section whose pages these are: /admin/payments/pay_… belongs to Payments.
  const currentSection =
    [...SECTIONS].reverse().find((item) => path === item.to || path.startsWith(`${item.to}/`))?.to ?? '/admin';
  return (
    <div className="admin">
      <nav className="admin-nav" aria-label={adminMessages.dashboardNav}>
        <ul>
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
