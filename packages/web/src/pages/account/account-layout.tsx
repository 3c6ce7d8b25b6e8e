import type { ReactNode } from 'react';
import { useSession } from '../../account/session.ts';
import { messages } from '../../i18n/messages.ts';
import { Link, signInPath, usePath } from '../../router.tsx';

/** The account's pages, in the order the account navigation lists them. */
export const ACCOUNT_PAGES = [
  { path: '/account', title: messages.ordersTitle },
  { path: '/account/payment-methods', title: messages.paymentMethodsTitle },
  { path: '/account/subscriptions', title: messages.subscriptionsTitle },
] as const;

/**
 * One account page: the account navigation beside it, its title, and the page itself only for a signed-in shopper
 * (anyone else is asked to sign in and comes back here). The server refuses the data to anyone else anyway.
 */
export function AccountLayout({ title, children }: { title: string; children: ReactNode }) {
  const session = useSession();
  const path = usePath();
  if (session.status === 'loading') return <p>{messages.loading}</p>;
  if (session.account === null) {
    return (
      <section className="account-sign-in card" aria-labelledby="account-page-title">
        <h1 id="account-page-title">{title}</h1>
        <p>{messages.accountSignInFirst}</p>
        <Link to={signInPath(path)} className="button primary">
          {messages.signIn}
        </Link>
      </section>
    );
  }
  return (
    <div className="account-page">
      <nav aria-label={messages.accountNav} className="account-nav">
        <p className="account-nav-title">{messages.accountTitle}</p>
        <ul>
          {ACCOUNT_PAGES.map((page) => (
            <li key={page.path}>
              <Link to={page.path} className="account-nav-link" current={path === page.path ? 'page' : undefined}>
                {page.title}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
      <section aria-labelledby="account-page-title" className="account-content">
        <h1 id="account-page-title">{title}</h1>
        {children}
      </section>
    </div>
  );
}
