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

/** `surface` null: the browser blocked the window. Settles when the flow has ended: how it ended. */
export async function approveWallet(
  context: WalletContext,
  surface: WalletSurface | null,
  signal: AbortSignal,
): Promise<'approved' | 'failed' | 'canceled'> {
  const { option, config, provider, report } = context;
  const vault = isVaultFlow(context);
  // PayPal's vault flow charges nothing now: no amount needed.
  const amount = vault ? null : context.options?.amount;
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
  if (outcome.kind === 'approved') report({ type: 'WALLET_APPROVED', option, result: outcome.result });
  if (outcome.kind === 'failed') console.error(`[kassa/checkout] ${option}: ${outcome.detail}`);
  return outcome.kind;
}
