// The wallet registry: how a way to pay other than the card plugs into the checkout. A wallet is ONE entry here
// (browser support + a loader); its view and its SDK live in their own module, imported on demand by `load`, so
// the card view's bundle never grows with them.
import type { ComponentType } from 'react';
import type { GatewayConfiguration } from '../machine/checkout.types.ts';
import type { WalletOptionId } from '../machine/payment-options.ts';
import type { WalletOptions } from '../runtime/options.ts';

export interface WalletContext {
  readonly config: GatewayConfiguration;
  /** The merchant's options for this wallet (e.g. `options.paypal`). */
  readonly options: WalletOptions | undefined;
  readonly signal: AbortSignal;
}

export interface WalletPlugin {
  /** Whether this browser can use the wallet at all (e.g. ApplePaySession on https); false leaves it out silently. */
  isSupported(): boolean;
  /** Imports the view (dynamic import) and sets the wallet up; rejects when it cannot be used (shown disabled). */
  load(context: WalletContext): Promise<ComponentType>;
}

export type WalletRegistry = Readonly<Partial<Record<WalletOptionId, WalletPlugin>>>;

/** The wallets this build offers. Empty in this slice: the wallets work adds paypal, paypalCredit, venmo, applePay, googlePay. */
export const WALLETS: WalletRegistry = {};
