import { useEffect, useRef, type ReactNode } from 'react';
import { api } from '../api/client.ts';
import { refreshSession, setSignedIn, useSession } from '../account/session.ts';
import { useCart } from '../cart/cart.ts';
import { messages } from '../i18n/messages.ts';
import { Link, navigate, usePath } from '../router.tsx';

export function Layout({ children }: { children: ReactNode }) {
  const session = useSession();
  const itemCount = useCart().reduce((sum, line) => sum + line.quantity, 0);
  const account = session.status === 'ready' ? session.account : null;
  const path = usePath();
  const main = useRef<HTMLElement>(null);
  const firstPath = useRef(path);
  // After a client-side navigation the clicked link is gone: move focus to the new page, as a page load would.
  useEffect(() => {
    if (path !== firstPath.current) main.current?.focus();
  }, [path]);

  async function signOut(): Promise<void> {
    try {
      await api.signOut();
      setSignedIn(null);
      navigate('/');
    } catch {
      // Never claim a sign-out that did not happen: show what the server says.
      await refreshSession();
    }
  }

  return (
    <div className="app">
      <a className="skip-link" href="#main">
        {messages.skipToContent}
      </a>
      <header className="app-header">
        <Link to="/" className="brand">
          Kassa shop
        </Link>
        <nav aria-label="Main" className="app-nav">
          <Link to="/">{messages.shopTitle}</Link>
          <Link to="/cart">{`Cart (${itemCount})`}</Link>
          {account?.role === 'admin' && <Link to="/admin">{messages.adminTitle}</Link>}
          {account ? (
            <>
              <span className="signed-in">{messages.signedInAs(account.name)}</span>
              <button type="button" className="link-button" onClick={signOut}>
                {messages.signOut}
              </button>
            </>
          ) : (
            session.status === 'ready' && <Link to="/sign-in">{messages.signIn}</Link>
          )}
        </nav>
      </header>
      <main id="main" className="app-main" ref={main} tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
