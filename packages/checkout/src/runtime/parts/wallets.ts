// The wallets' part, loaded on demand when a wallet is offered: the machine's part (an approved wallet method, the
// wallet views' Pay) and each offered wallet's set-up, started once the machine has the configuration (a wallet's own
// flow is its view's, src/wallets/).
import { walletsPart } from '../../machine/parts/wallets.ts';
import { WALLETS, type WalletEvent } from '../../wallets/registry.ts';
import { OPTION_FAILED_NOTE } from '../checkout-runtime.ts';
import { OPTION_LOAD_TIMEOUT_MS } from '../in-time.ts';
import type { RuntimePart } from './part.ts';

export const wallets: RuntimePart = {
  machine: walletsPart,
  start: (host, config, options, signal) => {
    const { walletOptions, wallets = WALLETS, optionLoadTimeoutMs = OPTION_LOAD_TIMEOUT_MS } = host.options;
    for (const option of options) {
      if (option === 'card') continue;
      const timeout = new Promise<never>((_, reject) => {
        host.later(optionLoadTimeoutMs, () => reject(new Error('it did not load in time')));
      });
      const context = {
        option,
        config,
        options: walletOptions?.[option],
        provider: host.provider,
        report: (event: WalletEvent) => host.send(event),
        signal,
      };
      const loaded = wallets[option]?.load(context) ?? Promise.reject(new Error('this build has no loader for it'));
      Promise.race([loaded, timeout]).then(
        (view) => {
          if (signal.aborted) return;
          host.walletViews.set(option, view);
          host.send({ type: 'OPTION_READY', option });
        },
        (error: unknown) => {
          if (signal.aborted) return;
          console.error(`[kassa/checkout] ${option} ${OPTION_FAILED_NOTE}`, error);
          host.send({ type: 'OPTION_FAILED', option });
        },
      );
    }
  },
};
