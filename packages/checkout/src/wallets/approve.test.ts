// A wallet's approval as the view runs it, against a stand-in provider (the provider clients have their own tests):
// what is asked of the provider, and what the checkout's machine is told.
import { describe, expect, it } from 'vitest';
import { gatewayConfiguration } from '../testing/fixtures.ts';
import type { PaymentMethodResult } from '../machine/checkout.types.ts';
import type { ProviderClient, WalletRequest } from '../provider/provider.ts';
import { approveWallet } from './approve.ts';
import type { WalletContext, WalletEvent } from './registry.ts';

function walletContext(options: Record<string, unknown>) {
  const requests: WalletRequest[] = [];
  const reported: WalletEvent[] = [];
  const result = { nonce: 'paypal-nonce', type: 'PayPalAccount' } as PaymentMethodResult;
  const provider = {
    approveWallet: (request: WalletRequest) => {
      requests.push(request);
      return Promise.resolve({ kind: 'approved' as const, result });
    },
  } as unknown as ProviderClient;
  const context: WalletContext = {
    option: 'paypal',
    config: gatewayConfiguration(),
    options,
    provider,
    report: (event) => reported.push(event),
    signal: new AbortController().signal,
  };
  return { context, requests, reported };
}

const surface = { kind: 'provider' } as const;

describe("a wallet's approval", () => {
  it('saved while paying: asks the provider for an approval it can save, for the amount, and marks the result vaultRequested', async () => {
    const { context, requests, reported } = walletContext({ amount: '12.00', offerSave: true });
    expect(await approveWallet(context, surface, new AbortController().signal, true)).toBe('approved');
    expect(requests).toMatchObject([{ option: 'paypal', amount: '12.00', vault: true }]);
    expect(reported).toMatchObject([{ type: 'WALLET_APPROVED', result: { nonce: 'paypal-nonce', vaultRequested: true } }]);
  });

  it('not saved (the box unticked): a payment of the amount, the result as the provider gave it', async () => {
    const { context, requests, reported } = walletContext({ amount: '12.00', offerSave: true });
    await approveWallet(context, surface, new AbortController().signal, false);
    expect(requests).toMatchObject([{ amount: '12.00', vault: false }]);
    expect(reported[0]?.result).not.toHaveProperty('vaultRequested');
  });
});
