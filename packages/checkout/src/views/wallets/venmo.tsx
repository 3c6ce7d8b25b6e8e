// Venmo's mark on its button, drawn here (our drawing, no copied artwork); in the wallets' chunk (views.tsx).
import type { ReactElement } from 'react';

export function VenmoMark(): ReactElement {
  return <span className="kassa-wallet__word">venmo</span>;
}
