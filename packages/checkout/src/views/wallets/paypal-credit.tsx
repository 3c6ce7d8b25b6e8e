// PayPal Credit's mark on its button, drawn here (our drawing, no copied artwork); in the wallets' chunk (views.tsx).
import type { ReactElement } from 'react';

export function PayPalCreditMark(): ReactElement {
  return (
    <span className="kassa-wallet__word">
      <b>Pay</b>Pal Credit
    </span>
  );
}
