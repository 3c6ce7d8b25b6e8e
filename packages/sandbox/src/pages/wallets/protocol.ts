// The wallet approval page's messages to the checkout (docs/contracts.md section 1, "Wallets").

export const WALLET_MESSAGE_SOURCE = 'kassa-wallet';

export interface ApprovalFragment {
  approvalId: string;
  parentOrigin: string;
}

/** `approved`: fetch the nonce from the client API; `cancelled`: ignore silently; `failed`: report it. */
export interface WalletMessage {
  source: typeof WALLET_MESSAGE_SOURCE;
  approvalId: string;
  type: 'approved' | 'cancelled' | 'failed';
}
