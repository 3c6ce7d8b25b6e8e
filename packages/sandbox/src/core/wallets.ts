import { createHash } from 'node:crypto';
import { validationError } from './errors.ts';
import type { ValidationError } from './errors.ts';

// The payment methods besides cards (gateway.md fake nonces; spec section 1's wallets): what a wallet nonce stands
// for and what the provider reports of it on a transaction. Apple Pay and Google Pay pay with a card (the
// transaction keeps it), PayPal and Venmo with an account.

export type WalletAccount =
  | {
      kind: 'paypal_account';
      payerEmail: string;
      payerId: string;
      payerFirstName: string;
      payerLastName: string;
      /** Set for a one-time payment; a billing agreement (vaultable PayPal) has a billingAgreementId instead. */
      paymentId: string | null;
      billingAgreementId: string | null;
    }
  | { kind: 'venmo_account'; username: string; venmoUserId: string }
  | {
      kind: 'apple_pay_card';
      /** The provider's names: 'Apple Pay - Visa', 'Apple Pay - MasterCard', 'Apple Pay - American Express'. */
      cardType: string;
      paymentInstrumentName: string;
      sourceDescription: string;
    }
  | {
      kind: 'android_pay_card';
      sourceCardType: string;
      sourceCardLast4: string;
      sourceDescription: string;
      virtualCardType: string;
      virtualCardLast4: string;
      /**
       * A device token (DPAN, authenticated by the phone's cryptogram) or the card itself (PAN_ONLY, a card saved in
       * the shopper's Google account): only the latter can be verified with 3-D Secure. Absent in records of earlier
       * versions, which were all network tokens.
       */
      isNetworkTokenized?: boolean;
    };

export type WalletKind = WalletAccount['kind'];

/** The client API's `type` of a wallet nonce, as the provider's client answers it. */
export const NONCE_TYPE: Readonly<Record<WalletKind, string>> = {
  paypal_account: 'PayPalAccount',
  venmo_account: 'VenmoAccount',
  apple_pay_card: 'ApplePayCard',
  android_pay_card: 'AndroidPayCard',
};

/** A stable, made-up id (payer ids, Venmo user ids) from a seed. */
export function walletId(seed: string, length = 13): string {
  return createHash('sha256').update(seed).digest('hex').slice(0, length).toUpperCase();
}

export const SANDBOX_PAYPAL_PAYER = {
  payerEmail: 'shopper@paypal.example',
  payerFirstName: 'Pat',
  payerLastName: 'Payer',
} as const;
export const SANDBOX_VENMO_USERNAME = 'venmojoe';

export function paypalAccount(billingAgreement: boolean, seed: string): WalletAccount {
  return {
    kind: 'paypal_account',
    ...SANDBOX_PAYPAL_PAYER,
    payerId: walletId(`payer:${SANDBOX_PAYPAL_PAYER.payerEmail}`),
    paymentId: billingAgreement ? null : `PAYID-${walletId(`payment:${seed}`, 24)}`,
    billingAgreementId: billingAgreement ? `B-${walletId(`agreement:${seed}`, 17)}` : null,
  };
}

export function venmoAccount(): WalletAccount {
  return {
    kind: 'venmo_account',
    username: SANDBOX_VENMO_USERNAME,
    venmoUserId: walletId(`venmo:${SANDBOX_VENMO_USERNAME}`, 19),
  };
}

/** Apple Pay and Google Pay name the card's brand their own way. */
const BRAND_NAMES: Readonly<Record<string, { applePay: string; googlePay: string }>> = {
  Visa: { applePay: 'Visa', googlePay: 'Visa' },
  MasterCard: { applePay: 'MasterCard', googlePay: 'MasterCard' },
  'American Express': { applePay: 'American Express', googlePay: 'American Express' },
  Discover: { applePay: 'Discover', googlePay: 'Discover' },
};

export function applePayCard(cardType: string, last4: string): WalletAccount {
  const brand = BRAND_NAMES[cardType]?.applePay ?? cardType;
  return {
    kind: 'apple_pay_card',
    cardType: `Apple Pay - ${brand}`,
    paymentInstrumentName: `${brand} ${last4}`,
    sourceDescription: `${brand} ${last4}`,
  };
}

export function androidPayCard(cardType: string, last4: string): WalletAccount {
  const brand = BRAND_NAMES[cardType]?.googlePay ?? cardType;
  return {
    kind: 'android_pay_card',
    sourceCardType: brand,
    sourceCardLast4: last4,
    sourceDescription: `${brand} ${last4}`,
    // The card the phone pays with is a device token (a different number, the same brand).
    virtualCardType: brand,
    virtualCardLast4: '1881',
    isNetworkTokenized: true,
  };
}

/**
 * Whether 3-D Secure applies to what a nonce pays with, so that `threeDSecure.required` can reject its sale. The
 * provider's rule: 3-D Secure is only compatible with card transactions; a Google Pay card that is not network
 * tokenized is one (the provider verifies it with 3-D Secure like a card), while Apple Pay and Google Pay device
 * tokens (authenticated on the phone), PayPal and Venmo accounts are not, and their sales ignore the option.
 */
export function threeDSecureApplies(wallet: WalletAccount | null | undefined): boolean {
  if (wallet === null || wallet === undefined) return true;
  return wallet.kind === 'android_pay_card' && wallet.isNetworkTokenized === false;
}

/**
 * Why a wallet cannot be saved, or null: a one-time PayPal payment has no billing agreement to charge again (the
 * provider's 82902); PayPal's vault flow (a billing agreement), Venmo accounts and the phones' cards can be saved.
 */
export function vaultingError(wallet: WalletAccount): ValidationError | null {
  if (wallet.kind !== 'paypal_account' || wallet.billingAgreementId !== null) return null;
  return validationError(['paypal_account'], 'base', '82902', 'Cannot vault one-time use PayPal account.');
}
