import type { Card } from '../core/cards.ts';
import type { Transaction } from '../core/transactions.ts';
import type { WalletAccount, WalletKind } from '../core/wallets.ts';
import type { XmlElement, XmlValue } from './xml.ts';

/** A wallet account's own details, as both a transaction and the vault write them. */
export function walletDetailsXml(wallet: WalletAccount, card: Card, token: string | null): XmlElement {
  switch (wallet.kind) {
    case 'paypal_account':
      return {
        token,
        'payer-email': wallet.payerEmail,
        'payer-id': wallet.payerId,
        'payer-first-name': wallet.payerFirstName,
        'payer-last-name': wallet.payerLastName,
        'payment-id': wallet.paymentId,
        'billing-agreement-id': wallet.billingAgreementId,
        'image-url': 'https://assets.braintreegateway.com/payment_method_logo/paypal.png',
      };
    case 'venmo_account':
      return {
        token,
        username: wallet.username,
        'venmo-user-id': wallet.venmoUserId,
        'source-description': `Venmo Account: ${wallet.username}`,
        'image-url': 'https://assets.braintreegateway.com/payment_method_logo/venmo.png',
      };
    case 'apple_pay_card':
      return {
        token,
        'card-type': wallet.cardType,
        bin: card.bin,
        'last-4': card.last4,
        'expiration-month': card.expirationMonth,
        'expiration-year': card.expirationYear,
        'payment-instrument-name': wallet.paymentInstrumentName,
        'source-description': wallet.sourceDescription,
        'cardholder-name': card.cardholderName,
        'image-url': 'https://assets.braintreegateway.com/payment_method_logo/apple_pay.png',
      };
    case 'android_pay_card':
      return {
        token,
        bin: card.bin,
        'source-card-type': wallet.sourceCardType,
        'source-card-last-4': wallet.sourceCardLast4,
        'source-description': wallet.sourceDescription,
        'virtual-card-type': wallet.virtualCardType,
        'virtual-card-last-4': wallet.virtualCardLast4,
        'is-network-tokenized': wallet.isNetworkTokenized !== false,
        'expiration-month': card.expirationMonth,
        'expiration-year': card.expirationYear,
        'image-url': 'https://assets.braintreegateway.com/payment_method_logo/android_pay_card.png',
      };
  }
}

/** The element a transaction has for each wallet in place of the card (the SDK reads it into paypalAccount & co). */
const TRANSACTION_TAG: Readonly<Record<WalletKind, string>> = {
  paypal_account: 'paypal',
  venmo_account: 'venmo-account',
  apple_pay_card: 'apple-pay',
  android_pay_card: 'android-pay-card',
};

/** What a wallet transaction has in place of the card, with what only a transaction carries. */
function walletElement(transaction: Transaction, wallet: WalletAccount): [tag: string, value: XmlElement] {
  const details = walletDetailsXml(wallet, transaction.card, transaction.paymentMethodToken ?? null);
  const extra: XmlElement =
    wallet.kind === 'paypal_account'
      ? { 'authorization-id': `AUTH-${transaction.id.toUpperCase()}` }
      : wallet.kind === 'android_pay_card'
        ? { 'google-transaction-id': `google_${transaction.id}` }
        : {};
  return [TRANSACTION_TAG[wallet.kind], { ...details, ...extra }];
}

/**
 * `payment-instrument-type` and the instrument's element: `credit-card` for cards; for a wallet, its own element
 * and an empty `credit-card`, as the provider answers (the SDK then reports an empty creditCard).
 */
export function paymentInstrumentXml(transaction: Transaction, cardXml: () => XmlElement): Record<string, XmlValue> {
  const { wallet } = transaction;
  if (wallet === undefined || wallet === null) return { 'payment-instrument-type': 'credit_card', 'credit-card': cardXml() };
  const [tag, value] = walletElement(transaction, wallet);
  return {
    'payment-instrument-type': wallet.kind,
    'credit-card': {
      token: null,
      bin: null,
      'last-4': null,
      'card-type': null,
      'expiration-month': null,
      'expiration-year': null,
    },
    [tag]: value,
  };
}
