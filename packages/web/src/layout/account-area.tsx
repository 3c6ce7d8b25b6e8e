import { useCallback, useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { api } from '../api/client.ts';
import { refreshSession, setSignedIn, useSession } from '../account/session.ts';
import { messages } from '../i18n/messages.ts';
import { Link, navigate, signInPath, usePath } from '../router.tsx';

/**
 * Widths at which the header's row has no room for who is signed in, Account and Sign out (app.css's header): an
 * admin's under 430 px (it holds Admin beside Cart), a shopper's under 384 px (where the shop's name gives way to the
 * logo; at 320 px they went to a second row).
 */
const CROWDED_HEADER = { admin: '(max-width: 26.8125rem)', shopper: '(max-width: 23.9375rem)' } as const;

function useMediaQuery(query: string): boolean {
  // One subscription per query, not one per render (React subscribes again whenever it is given a new function).
  const subscribe = useCallback(
    (changed: () => void) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', changed);
      return () => list.removeEventListener('change', changed);
    },
    [query],
  );
  return useSyncExternalStore(subscribe, () => window.matchMedia(query).matches);
}

/**
 * Who is signed in, their account (orders, saved cards, subscriptions), and the way in or out. Where the header has no
 * room for them (CROWDED_HEADER), they sit behind one button, a disclosure: `aria-expanded` on the button, the panel
 * next in the tab order; Escape closes it and gives focus back to the button; a press outside, focus moving out of it,
 * an action in it and a new page close it, focus left where it went. Wider, the button is hidden and the panel's
 * contents are the header's row, as they always were.
 */
export function AccountArea() {
  const session = useSession();
  const path = usePath();
  const admin = session.status === 'ready' && session.account?.role === 'admin';
  const compact = useMediaQuery(CROWDED_HEADER[admin ? 'admin' : 'shopper']);
  // Open on the page it was opened on, while the header is crowded: a new page (the Account link, Back) or a wider
  // window closes it.
  const [openOn, setOpenOn] = useState<string | null>(null);
  if (openOn !== null && (openOn !== path || !compact)) setOpenOn(null);
  const open = openOn !== null;
  const area = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  useEffect(() => {
    if (!open) return;
    const inside = (target: EventTarget | null) => target instanceof Node && area.current?.contains(target) === true;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setOpenOn(null);
      button.current?.focus();
    };
    const onPointerDown = (event: PointerEvent) => {
      if (!inside(event.target)) setOpenOn(null);
    };
    // Tabbing out of it closes it; a press on its text (focus to nowhere, no focusin) does not.
    const onFocusIn = (event: FocusEvent) => {
      if (!inside(event.target)) setOpenOn(null);
    };
    // An action taken in it (the Account link even on the account's page, Sign out): it has done its job.
    const onClick = (event: MouseEvent) => {
      const target = event.target;
      if (target instanceof Element && panel.current?.contains(target) && target.closest('a, button')) setOpenOn(null);
    };
    document.addEventListener('keydown', onKeyDown);
    document.addEventListener('pointerdown', onPointerDown);
    document.addEventListener('focusin', onFocusIn);
    document.addEventListener('click', onClick);
    return () => {
      document.removeEventListener('keydown', onKeyDown);
      document.removeEventListener('pointerdown', onPointerDown);
      document.removeEventListener('focusin', onFocusIn);
      document.removeEventListener('click', onClick);
    };
  }, [open]);

  if (session.status === 'loading') return <div className="account-area" />;
  const account = session.account;
  if (!account) {
    return (
      <div className="account-area">
        <Link to={signInPath(path)} className="nav-link">
          {messages.signIn}
        </Link>
      </div>
    );
  }

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
    <div className="account-area" ref={area} data-open={open} data-compact={compact}>
      <button
        type="button"
        ref={button}
        className="icon-button account-menu-button"
        aria-label={messages.accountMenuButton}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => setOpenOn(open ? null : path)}
      >
        <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <g fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
            <circle cx="12" cy="8" r="4" />
            <path d="M4 21a8 8 0 0 1 16 0" />
          </g>
        </svg>
      </button>
      <div id={panelId} className="account-menu" ref={panel}>
        <span className="signed-in">
          {messages.signedInAs(account.name)}
          <span className="signed-in-email">{account.email}</span>
        </span>
        <Link to="/account" className="nav-link account-link" current={path.startsWith('/account') ? 'page' : undefined}>
          {messages.accountMenu}
        </Link>
        <button type="button" className="link-button" onClick={signOut}>
          {messages.signOut}
        </button>
      </div>
    </div>
  );
}
