// Apple Pay's mark on its button, drawn here (our drawing, no copied artwork); in the wallets' chunk (views.tsx).
import type { ReactElement } from 'react';

export function ApplePayMark(): ReactElement {
  return (
    <span className="kassa-wallet__word">
      <svg viewBox="0 0 14 17" width="14" height="17" focusable="false" aria-hidden="true">
        <path
          d="M11.6 8.5c0-2 1.6-2.9 1.7-3-0.9-1.4-2.4-1.6-2.9-1.6-1.2-0.1-2.4 0.7-3 0.7s-1.6-0.7-2.6-0.7C3.5 3.9 2.2 4.7 1.5 6c-1.5 2.6-0.4 6.4 1 8.5 0.7 1 1.5 2.1 2.6 2.1 1 0 1.4-0.7 2.7-0.7s1.6 0.7 2.7 0.6c1.1 0 1.8-1 2.5-2 0.8-1.1 1.1-2.2 1.1-2.3 0 0-2.5-0.9-2.5-3.7zM9.6 2.5c0.6-0.7 0.9-1.6 0.8-2.5-0.8 0-1.7 0.5-2.3 1.2-0.5 0.6-0.9 1.5-0.8 2.4 0.9 0.1 1.7-0.4 2.3-1.1z"
          fill="currentColor"
        />
      </svg>
      Pay
    </span>
  );
}
