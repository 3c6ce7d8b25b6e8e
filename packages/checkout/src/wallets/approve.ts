// A wallet's approval, run when the shopper presses its button (in the wallets' chunk, never with the card view): the
// provider's flow on the surface the view prepared. An approval goes to the checkout's machine (Pay hands it over);
// the view shows a failure itself, and a cancel not at all.
import type { WalletSurface } from '../provider/provider.ts';
import type { WalletContext } from './registry.ts';

/**
 * PayPal's vault flow (the provider's `paypal: { flow: 'vault' }`): the shopper saves the account for later payments
 * instead of paying now (a page that saves methods, no order). Only PayPal has one.
 */
export function isVaultFlow(context: WalletContext): boolean {
  return context.option === 'paypal' && context.options?.flow === 'vault';
}

/**
 * The wallet's view offers to save it while paying (the merchant's `offerSave: true` for this wallet, for a signed-in
 * shopper: the merchant's server saves the nonce): "Save {wallet} for my next payments", checked by default like "Save
 * card".
 */
export function offersSave(context: WalletContext): boolean {
  return context.options?.offerSave === true && !isVaultFlow(context);
}

/**
 * `surface` null: the browser blocked the window. `save`: the shopper asked to save the wallet while paying, so the
 * approval is for later charges too and the result says `vaultRequested`. Settles when the flow has ended: how it ended.
 */
export async function approveWallet(
  context: WalletContext,
  surface: WalletSurface | null,
  signal: AbortSignal,
  save = false,
): Promise<'approved' | 'failed' | 'canceled'> {
  const { option, config, provider, report } = context;
  const vaultFlow = isVaultFlow(context);
  const vault = vaultFlow || save;
  // PayPal's vault flow charges nothing now: no amount needed.
  const amount = vaultFlow ? null : context.options?.amount;
  const outcome =
    surface === null || (amount !== null && typeof amount !== 'string')
      ? ({
          kind: 'failed',
          detail: surface === null ? 'the browser blocked its window' : `options.${option}.amount is not a decimal string`,
        } as const)
      : await provider.approveWallet({
          option,
          amount,
          vault,
          config,
          surface,
          signal: AbortSignal.any([signal, context.signal]),
        });
  if (outcome.kind === 'approved')
    report({ type: 'WALLET_APPROVED', option, result: save ? { ...outcome.result, vaultRequested: true } : outcome.result });
  if (outcome.kind === 'failed') console.error(`[kassa/checkout] ${option}: ${outcome.detail}`);
  return outcome.kind;
}
