// A wallet's view, loaded on demand when the wallet initialised (src/wallets/registry.ts).
import type { ReactElement } from 'react';
import type { PaymentOptionId } from '../../machine/payment-options.ts';
import { useCheckoutContext } from '../checkout-context.ts';

export function WalletView({ option }: { readonly option: PaymentOptionId }): ReactElement | null {
  const { runtime } = useCheckoutContext();
  const View = runtime?.walletView(option) ?? null;
  return View === null ? null : <View />;
}
