import { randomBytes } from 'node:crypto';
import { invalid, validationError } from './errors.ts';
import type { Outcome, ValidationError } from './errors.ts';
import { lookUpFakeNonce } from './fake-nonces.ts';
import type { Authorization } from './fingerprint.ts';
import type { MerchantSettings, Wallet } from './merchant-settings.ts';
import type { NonceRecord, Nonces } from './nonces.ts';
import { formatAmount, validateAmount } from './transactions.ts';
import { paypalAccount } from './wallets.ts';

// The wallets' approval in the browser, as the sandbox plays it: the checkout starts an approval for an amount, the
// shopper approves, cancels or fails it on the sandbox's approval page (standing in for PayPal's window, the Venmo
// app, the Apple Pay and Google Pay sheets), and an approved one yields a single-use nonce of the wallet's type.
// Started with `vault` (PayPal's vault flow, braintree-web's `flow: 'vault'`), the shopper agrees to be charged again
// later: PayPal then answers a billing agreement, which can be saved (a one-time payment cannot), and no amount is
// needed (none is charged at approval).

export const APPROVAL_LIFETIME_MS = 10 * 60 * 1000;
const PATH = ['wallet'] as const;

/** Each wallet pays with the account (or device card) its first fake nonce stands for. */
const ACCOUNT_NONCE: Readonly<Record<Wallet, string>> = {
  paypal: 'fake-paypal-one-time-nonce',
  venmo: 'fake-venmo-account-nonce',
  apple_pay: 'fake-apple-pay-visa-nonce',
  google_pay: 'fake-android-pay-visa-nonce',
};

export interface WalletApproval {
  /** 128 random bits: the approval page's only credential. */
  id: string;
  wallet: Wallet;
  /** null for a vault-flow approval started without an amount. */
  amount: string | null;
  /** PayPal's vault flow: the approved account is a billing agreement. */
  vault: boolean;
  currencyIsoCode: string;
  requestedBy: string | null;
  state: 'pending' | 'approved' | 'cancelled' | 'failed';
  result: NonceRecord | null;
  expiresAt: number;
}

export interface WalletApprovalsContext {
  nonces: Nonces;
  clock: () => Date;
  settings: () => MerchantSettings;
  currencyIsoCode: string;
}

export class WalletApprovals {
  /** In memory only, like 3-D Secure challenges: minutes long. */
  private readonly approvals = new Map<string, WalletApproval>();

  constructor(private readonly context: WalletApprovalsContext) {}

  start(authorization: Authorization, wallet: unknown, amount: unknown, vault = false): Outcome<WalletApproval> {
    const errors: ValidationError[] = [];
    const enabled = this.context.settings().wallets;
    if (!enabled.includes(wallet as Wallet)) {
      errors.push(validationError(PATH, 'type', 'wallet_not_enabled', 'This wallet is not enabled for this merchant account.'));
    }
    const noAmount = vault && (amount === undefined || amount === null || amount === '');
    const minorUnits = noAmount ? null : validateAmount(amount, PATH);
    if (minorUnits !== null && typeof minorUnits !== 'number') errors.push(minorUnits);
    if (errors.length > 0 || (minorUnits !== null && typeof minorUnits !== 'number')) return invalid(errors);
    const now = this.context.clock().getTime();
    // Expired approvals go, oldest first: all live as long, so the first live one ends the sweep.
    for (const [id, approval] of this.approvals) {
      if (approval.expiresAt > now) break;
      this.approvals.delete(id);
    }
    const approval: WalletApproval = {
      id: randomBytes(16).toString('hex'),
      wallet: wallet as Wallet,
      amount: minorUnits === null ? null : formatAmount(minorUnits),
      vault,
      currencyIsoCode: this.context.currencyIsoCode,
      requestedBy: authorization.customerId,
      state: 'pending',
      result: null,
      expiresAt: now + APPROVAL_LIFETIME_MS,
    };
    this.approvals.set(approval.id, approval);
    return { ok: true, value: approval };
  }

  find(id: string): WalletApproval | undefined {
    const approval = this.approvals.get(id);
    return approval === undefined || approval.expiresAt <= this.context.clock().getTime() ? undefined : approval;
  }

  /** The shopper's choice on the approval page; decided once. */
  decide(id: string, decision: 'approved' | 'cancelled' | 'failed'): WalletApproval | undefined {
    const approval = this.find(id);
    if (approval === undefined || approval.state !== 'pending') return approval;
    approval.state = decision;
    if (decision === 'approved') {
      const now = this.context.clock();
      const account = lookUpFakeNonce(ACCOUNT_NONCE[approval.wallet], now);
      if (account?.kind !== 'card' || account.wallet === undefined) throw new Error(`no account for ${approval.wallet}`);
      const wallet = approval.vault && approval.wallet === 'paypal' ? paypalAccount(true, approval.id) : account.wallet;
      approval.result = this.context.nonces.issue(account.card, approval.requestedBy, now.getTime(), null, null, wallet);
    }
    return approval;
  }

  /** The nonce an approved approval handed out, for the checkout that started it. */
  result(authorization: Authorization, id: string): Outcome<NonceRecord> | null {
    const approval = this.find(id);
    if (approval === undefined || approval.requestedBy !== authorization.customerId) return null;
    if (approval.result !== null) return { ok: true, value: approval.result };
    const messages = {
      pending: 'The wallet payment is not approved yet.',
      cancelled: 'The shopper cancelled the wallet payment.',
      failed: 'The wallet payment failed.',
      approved: 'The wallet payment failed.',
    } as const;
    return invalid([validationError(PATH, 'base', `wallet_${approval.state}`, messages[approval.state])]);
  }
}
