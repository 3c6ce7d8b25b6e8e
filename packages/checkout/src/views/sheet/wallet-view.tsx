// A wallet's view, loaded on demand when the wallet initialised (src/wallets/registry.ts); nothing for other views.
import type { ReactElement } from 'react';
import type { ViewId } from '../../machine/checkout.types.ts';
import { useCheckoutContext } from '../checkout-context.ts';

export function WalletView({ view }: { readonly view: ViewId }): ReactElement | null {
  const { runtime } = useCheckoutContext();
  const View = runtime?.walletView(view) ?? null;
  return View === null ? null : <View />;
}
