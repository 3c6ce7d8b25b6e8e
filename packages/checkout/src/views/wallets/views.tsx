// The wallet views, one chunk for all five (each is the shared button with its mark): loaded once any wallet is
// offered, never with the card view.
import type { ComponentType, ReactElement } from 'react';
import type { WalletOptionId } from '../../machine/payment-options.ts';
import type { WalletContext } from '../../wallets/registry.ts';
import { ApplePayMark } from './apple-pay.tsx';
import { GooglePayMark } from './google-pay.tsx';
import { PayPalCreditMark } from './paypal-credit.tsx';
import { PayPalMark } from './paypal.tsx';
import { VenmoMark } from './venmo.tsx';
import { WalletButton } from './wallet-button.tsx';

const MARKS: Readonly<Record<WalletOptionId, () => ReactElement>> = {
  paypal: PayPalMark,
  paypalCredit: PayPalCreditMark,
  venmo: VenmoMark,
  applePay: ApplePayMark,
  googlePay: GooglePayMark,
};

/** The view of the wallet `context` is for, bound to its context (set up once, when the wallet loads). */
export function walletView(context: WalletContext): ComponentType {
  const Mark = MARKS[context.option];
  return function WalletView(): ReactElement {
    return <WalletButton context={context} mark={<Mark />} />;
  };
}
