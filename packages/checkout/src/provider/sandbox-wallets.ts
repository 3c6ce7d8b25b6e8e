// Wallets against Kassa's sandbox gateway (packages/sandbox README, "Wallets in the browser"): an approval started on
// the client API, the sandbox's approval page (on the gateway's origin) where the shopper approves, cancels or fails,
// then the approved method's nonce. The page stands in for PayPal's and Venmo's windows and for the Apple Pay and
// Google Pay sheets. In a window the checkout opened, the page tells us how it ended; on a phone that scanned the QR
// code (Venmo on a desktop) it cannot, so we ask the gateway until the approval is decided. Imported on demand.
import type { WalletOptionId } from '../machine/payment-options.ts';
import type { ClientToken } from './client-token.ts';
import type { WalletOutcome, WalletRequest } from './provider.ts';
import { walletResult } from './method-result.ts';
import { isRecord, type Json } from './json.ts';
import { ClientApiRefusal, clientApiPost, type ClientApiPost, type GatewayFetch } from './sandbox-client-api.ts';

/** The sandbox's name for each wallet's approval (PayPal Credit is a PayPal approval). */
const APPROVAL_KIND: Readonly<Record<WalletOptionId, string>> = {
  paypal: 'paypal',
  paypalCredit: 'paypal',
  venmo: 'venmo',
  applePay: 'apple_pay',
  googlePay: 'google_pay',
};

/** What the approval page posts to its opener (the sandbox's pages/wallets/protocol.ts). */
const APPROVAL_SOURCE = 'kassa-wallet';
/** How often the checkout asks whether a phone decided; the approval lives 10 minutes on the gateway. */
export const PHONE_POLL_MS = 1_500;

type ApprovalEnd = 'approved' | 'cancelled' | 'failed';

/** The approval page's last word (from the gateway's origin, about this approval), or a window the shopper closed. */
function windowEnd(approvalId: string, gatewayOrigin: string, popup: Window, signal: AbortSignal): Promise<ApprovalEnd> {
  return new Promise((resolve) => {
    const finish = (end: ApprovalEnd): void => {
      window.removeEventListener('message', onMessage);
      clearInterval(watch);
      resolve(end);
    };
    const onMessage = (event: MessageEvent<unknown>): void => {
      const data = event.data;
      if (event.origin !== gatewayOrigin || !isRecord(data) || data.source !== APPROVAL_SOURCE || data.approvalId !== approvalId)
        return;
      if (data.type === 'approved' || data.type === 'cancelled' || data.type === 'failed') finish(data.type);
    };
    // Closing the window is a cancel, as with the providers' own windows (no event tells us: we look).
    const watch = setInterval(() => {
      if (popup.closed || signal.aborted) finish('cancelled');
    }, 400);
    window.addEventListener('message', onMessage);
  });
}

/** The code of a refused result ('wallet_pending', 'wallet_cancelled', ...), wherever the field errors nest it. */
function refusalCode(body: unknown): string | null {
  if (!isRecord(body)) return null;
  if (typeof body.code === 'string') return body.code;
  const nested = Array.isArray(body.fieldErrors) ? body.fieldErrors : [];
  for (const entry of nested) {
    const code = refusalCode(entry);
    if (code !== null) return code;
  }
  return null;
}

const pause = (ms: number, signal: AbortSignal): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

/** Asks for the approval's result until the phone decided: the method, or a cancel; a failure rejects. */
async function phoneEnd(resultOf: () => Promise<Json>, signal: AbortSignal): Promise<Json | 'cancelled'> {
  for (;;) {
    await pause(PHONE_POLL_MS, signal);
    if (signal.aborted) return 'cancelled';
    try {
      return await resultOf();
    } catch (error) {
      const code = error instanceof ClientApiRefusal && error.status === 422 ? refusalCode(error.body) : null;
      if (code === 'wallet_cancelled') return 'cancelled';
      if (code !== 'wallet_pending') throw error;
    }
  }
}

export async function approveWithSandbox(
  token: ClientToken,
  request: WalletRequest,
  fetchFromGateway: GatewayFetch,
): Promise<WalletOutcome> {
  const { option, amount, vault, config, surface, signal } = request;
  const post: ClientApiPost = clientApiPost(token, config.clientApiUrl, signal, fetchFromGateway);
  const closeWindow = (): void => {
    if (surface.kind === 'window' && !surface.window.closed) surface.window.close();
  };
  try {
    const approval = { ...(amount !== null ? { amount } : {}), ...(vault === true ? { vault: true } : {}) };
    const started = await post(`/v1/wallets/${APPROVAL_KIND[option]}/approvals`, approval, 'the wallet approval');
    const { approvalId, approvalUrl } = started;
    const gatewayOrigin = new URL(config.assetsUrl).origin;
    // The page must be the gateway's own: never send the shopper to a page another origin named.
    if (typeof approvalId !== 'string' || typeof approvalUrl !== 'string' || new URL(approvalUrl).origin !== gatewayOrigin) {
      throw new Error('The wallet approval has no page on the gateway origin.');
    }
    const url = `${approvalUrl}#${encodeURIComponent(JSON.stringify({ approvalId, parentOrigin: window.location.origin }))}`;
    const resultOf = () =>
      post(`/v1/wallets/approvals/${encodeURIComponent(approvalId)}/result`, {}, 'the wallet approval result');
    let answer: Json | Exclude<ApprovalEnd, 'approved'>;
    if (surface.kind === 'window') {
      const ended = windowEnd(approvalId, gatewayOrigin, surface.window, signal);
      surface.window.location.href = url;
      const end = await ended;
      closeWindow();
      answer = end === 'approved' ? await resultOf() : end;
    } else if (surface.kind === 'qrCode') {
      surface.show(url);
      answer = await phoneEnd(resultOf, signal);
    } else throw new Error("The sandbox's wallet page needs a window or a QR code to show in.");
    if (answer === 'cancelled') return { kind: 'canceled' };
    if (answer === 'failed') return { kind: 'failed', detail: "The shopper's wallet refused the payment." };
    const result = walletResult(answer.paymentMethod);
    return result !== null
      ? { kind: 'approved', result }
      : { kind: 'failed', detail: 'The approved wallet payment has no payment method.' };
  } catch (error) {
    closeWindow();
    if (signal.aborted) return { kind: 'canceled' };
    return { kind: 'failed', detail: error instanceof Error ? error.message : String(error) };
  }
}
