// The wallet registry: how a way to pay other than the card plugs into the checkout. A wallet is ONE entry here (a
// loader); its view and its flow live in their own modules, imported on demand by `load`, so the card view's bundle
// never grows with them. Whether this browser can pay with a wallet is the provider client's `canPayWith`.
import type { ComponentType } from 'react';
import type { CheckoutEvent, GatewayConfiguration } from '../machine/checkout.types.ts';
import type { WalletOptionId } from '../machine/payment-options.ts';
import type { ProviderClient } from '../provider/provider.ts';
import type { WalletOptions } from '../runtime/options.ts';

/** What a wallet's flow tells the checkout's machine: the method the shopper approved. */
export type WalletEvent = Extract<CheckoutEvent, { readonly type: 'WALLET_APPROVED' }>;

export interface WalletContext {
  readonly option: WalletOptionId;
  readonly config: GatewayConfiguration;
  /** The merchant's options for this wallet (e.g. `options.paypal`). */
  readonly options: WalletOptions | undefined;
  readonly provider: ProviderClient;
  readonly report: (event: WalletEvent) => void;
  /** Aborted when the checkout is torn down or loads again. */
  readonly signal: AbortSignal;
}

export interface WalletPlugin {
  /** Imports the view (dynamic import) and sets the wallet up; rejects when it cannot be used (shown disabled). */
  load(context: WalletContext): Promise<ComponentType>;
}

export type WalletRegistry = Readonly<Partial<Record<WalletOptionId, WalletPlugin>>>;

/** Every wallet's view is in one chunk (each is a button and its mark), imported when a wallet is offered. */
const inWalletsChunk: WalletPlugin = {
  load: async (context) => (await import('../views/wallets/views.tsx')).walletView(context),
};

export const WALLETS: WalletRegistry = {
  paypal: inWalletsChunk,
  paypalCredit: inWalletsChunk,
  venmo: inWalletsChunk,
  applePay: inWalletsChunk,
  googlePay: inWalletsChunk,
};
