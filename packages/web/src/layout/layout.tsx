import { useEffect, useRef, type ReactNode } from 'react';
import { useSession } from '../account/session.ts';
import { useCart } from '../cart/cart.ts';
import { messages } from '../i18n/messages.ts';
import { Link, usePath } from '../router.tsx';
import { AccountArea } from './account-area.tsx';
import { SandboxBanner } from './sandbox-banner.tsx';
import { ThemeToggle } from './theme-toggle.tsx';

export function Layout({ children }: { children: ReactNode }) {
  const path = usePath();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);
  // After a client-side navigation the clicked link is gone: move focus to the new page, as a page load would.
  useEffect(() => {
    if (path !== firstPath.current) main.current?.focus();
  }, [path]);

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {messages.skipToContent}
      </a>
      <SandboxBanner />
      <header className="app-header">
        <div className="app-header-inner">
          <Link to="/" className="brand" label={messages.homeLink}>
            <img className="brand-logo" src="/logo.svg" alt="" width="32" height="32" />
            <span className="brand-name">{messages.shopName}</span>
          </Link>
          <nav aria-label="Main" className="app-nav">
            <NavLinks />
          </nav>
          <div className="header-tools">
            <ThemeToggle />
            <AccountArea />
          </div>
        </div>
      </header>
      <main id="main" className="app-main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}

function NavLinks() {
  const session = useSession();
  const itemCount = useCart().reduce((sum, line) => sum + line.quantity, 0);
  const path = usePath();
  const current = (to: string) => (path === to ? 'page' : undefined);
  return (
    <>
      <Link to="/" className="nav-link nav-shop" current={current('/')}>
        {messages.shopTitle}
      </Link>
      <Link to="/cart" className="nav-link" current={current('/cart')}>
        {messages.cartLink}
        {/* Always there, empty with no items: on a phone the nav sits against the header's right edge, and a count
            that went (going to the checkout empties the cart) would move the Cart link (app.css keeps its space). */}
        <span className="cart-count" aria-hidden="true">
          {itemCount > 0 ? itemCount : null}
        </span>
        {itemCount > 0 && <span className="visually-hidden">{`, ${messages.cartItems(itemCount)}`}</span>}
      </Link>
      {session.status === 'ready' && session.account?.role === 'admin' && (
        <Link to="/admin" className="nav-link nav-admin" current={path.startsWith('/admin') ? 'page' : undefined}>
          {messages.adminTitle}
        </Link>
      )}
    </>
  );
}
