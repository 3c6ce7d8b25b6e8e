// PayPal's mark on its button, drawn here (our drawing, no copied artwork); in the wallets' chunk (views.tsx).
import type { ReactElement } from 'react';

export function PayPalMark(): ReactElement {
  return (
    <span className="kassa-wallet__word">
      <b>Pay</b>
      <span>Pal</span>
    </span>
  );
}
