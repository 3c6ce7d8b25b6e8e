// Google Pay's mark on its button, drawn here (our drawing, no copied artwork: a four-colour G of arcs, and "Pay");
// in the wallets' chunk (views.tsx).
import type { ReactElement } from 'react';

export function GooglePayMark(): ReactElement {
  return (
    <span className="kassa-wallet__word">
      <svg viewBox="0 0 20 20" width="20" height="20" focusable="false" aria-hidden="true" fill="none" strokeWidth="3.2">
        <path d="M16.2 6.1A7.2 7.2 0 0 0 4.4 5.3" stroke="#ea4335" />
        <path d="M4.4 5.3a7.2 7.2 0 0 0 0 9.4" stroke="#fbbc04" />
        <path d="M4.4 14.7a7.2 7.2 0 0 0 11.3-.9" stroke="#34a853" />
        <path d="M15.7 13.8A7.2 7.2 0 0 0 17.2 10H10" stroke="#4285f4" />
      </svg>
      Pay
    </span>
  );
}
