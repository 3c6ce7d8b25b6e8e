// The wallets' part of the view machine (an approved wallet method, the wallet views' Pay): loaded on demand, only
// when a wallet is offered (see MachinePart).
import type { MachinePart, ViewId, WalletActionName, WalletGuardName } from '../checkout.types.ts';

const WALLET_VIEWS: ReadonlySet<ViewId> = new Set<ViewId>(['paypal', 'paypalCredit', 'venmo', 'applePay', 'googlePay']);

export const walletsPart: MachinePart<WalletGuardName, WalletActionName> = {
  transitions: {
    ready: {
      SUBMIT: [
        { guard: 'hasWalletMethod', actions: ['resolveWalletMethod'] },
        { guard: 'onWalletView', actions: ['rejectUseWalletButton'] },
      ],
      WALLET_APPROVED: [{ actions: ['selectWalletMethod'] }],
    },
  },
  guards: {
    onWalletView: (state) => state.view !== null && WALLET_VIEWS.has(state.view),
    hasWalletMethod: (state) => state.walletMethod !== null,
  },
  actions: {
    rejectUseWalletButton: (state, _, emit) => {
      const messageKey =
        state.view === 'paypal' || state.view === 'paypalCredit' ? 'error.usePayPalButton' : 'error.useWalletButton';
      emit({ type: 'rejectRequest', error: { code: 'use_wallet_button', messageKey, retriable: true } });
      return { ...state, sheetError: messageKey };
    },
    // An approval that ends after the shopper left the wallet's view changes nothing.
    selectWalletMethod: (state, event) =>
      event.type === 'WALLET_APPROVED' && event.option === state.view
        ? { ...state, walletMethod: event.result, sheetError: null }
        : state,
    resolveWalletMethod: (state, _, emit) => {
      if (state.walletMethod !== null) emit({ type: 'resolveRequest', result: state.walletMethod });
      return state;
    },
  },
};
