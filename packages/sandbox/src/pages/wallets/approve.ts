import { WALLET_MESSAGE_SOURCE } from './protocol.ts';
import type { ApprovalFragment, WalletMessage } from './protocol.ts';

// The wallet approval page (entry of approve.js): shows the wallet and the amount; Approve, Cancel (Escape too) or
// Simulate a failure; tells the checkout that opened it (opener window or parent frame, only at its origin).

const WALLET_NAMES: Readonly<Record<string, string>> = {
  paypal: 'PayPal',
  venmo: 'Venmo',
  apple_pay: 'Apple Pay',
  google_pay: 'Google Pay',
};
const DONE: Readonly<Record<WalletMessage['type'], string>> = {
  approved: 'Approved. You can go back to the checkout.',
  cancelled: 'Cancelled. You can go back to the checkout.',
  failed: 'The payment failed. You can go back to the checkout.',
};

function readFragment(hash: string): ApprovalFragment | null {
  try {
    const value = JSON.parse(decodeURIComponent(hash.replace(/^#/, ''))) as Partial<ApprovalFragment>;
    if (typeof value.approvalId === 'string' && typeof value.parentOrigin === 'string') {
      return { approvalId: value.approvalId, parentOrigin: value.parentOrigin };
    }
  } catch {
    // Falls through: shown as unavailable.
  }
  return null;
}

function button(id: string): HTMLButtonElement {
  const found = document.getElementById(id);
  if (!(found instanceof HTMLButtonElement)) throw new Error(`approval page: #${id} is missing`);
  return found;
}

const fragment = readFragment(location.hash);
const base = fragment === null ? '' : `/wallets/approvals/${encodeURIComponent(fragment.approvalId)}`;
const buttons = { approve: button('approve'), cancel: button('cancel'), fail: button('fail') };
const summary = document.getElementById('summary');
const status = document.getElementById('status');
let done = false;

function tell(type: WalletMessage['type']): void {
  if (fragment === null) return;
  const message: WalletMessage = { source: WALLET_MESSAGE_SOURCE, approvalId: fragment.approvalId, type };
  const checkout: Window | null = window.opener ?? (window.parent === window ? null : window.parent);
  checkout?.postMessage(message, fragment.parentOrigin);
}

async function decide(decision: 'approve' | 'cancel' | 'fail'): Promise<void> {
  if (done) return;
  done = true;
  for (const control of Object.values(buttons)) control.disabled = true;
  const response = await fetch(`${base}/${decision}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{}',
  }).catch(() => null);
  const end = decision === 'cancel' ? 'cancelled' : decision === 'approve' && response?.ok === true ? 'approved' : 'failed';
  tell(end);
  // On a phone that scanned the checkout's QR code nothing closes this page: say it is done.
  if (status !== null) status.textContent = DONE[end];
}

async function load(): Promise<void> {
  const response = fragment === null ? null : await fetch(base).catch(() => null);
  const details =
    response?.ok === true
      ? ((await response.json()) as {
          wallet: string;
          amount: string | null;
          currencyIsoCode: string;
          state: string;
          vault?: boolean;
        })
      : null;
  // Cancelled while this was on its way: the page already says so.
  if (done) return;
  if (details === null || details.state !== 'pending') {
    if (status !== null) status.textContent = 'This payment has expired or does not exist. Close it and try again.';
    done = true;
    tell('failed');
    return;
  }
  const wallet = WALLET_NAMES[details.wallet] ?? details.wallet;
  const amount =
    details.amount === null
      ? null
      : new Intl.NumberFormat('en', { style: 'currency', currency: details.currencyIsoCode }).format(Number(details.amount));
  document.title = `${wallet}: approve the payment`;
  // The vault flow: the shopper agrees to later charges by the shop (PayPal's billing agreement).
  const save = details.vault === true ? ` Let this shop charge ${wallet} again later.` : '';
  if (summary !== null)
    summary.textContent = amount === null ? `Save ${wallet} for this shop.${save}` : `Pay ${amount} with ${wallet}.${save}`;
  buttons.approve.disabled = false;
  buttons.fail.disabled = false;
  buttons.approve.focus();
}

buttons.approve.addEventListener('click', () => void decide('approve'));
buttons.cancel.addEventListener('click', () => (done ? tell('cancelled') : void decide('cancel')));
buttons.fail.addEventListener('click', () => void decide('fail'));
document.addEventListener('keydown', (event) => {
  if (event.key !== 'Escape') return;
  event.preventDefault();
  if (done) tell('cancelled');
  else void decide('cancel');
});
// The HTML draws the buttons disabled: one pressed before this deferred script ran did nothing, and the checkout went on
// waiting for an answer that never came. Cancel works from now on; Approve and the failure once the payment is shown.
buttons.cancel.disabled = false;
void load();
