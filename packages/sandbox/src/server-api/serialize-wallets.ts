import type { Transaction } from '../core/transactions.ts';
import type { XmlElement, XmlValue } from './xml.ts';

/** What a wallet transaction has in place of the card: the element the SDK reads into paypalAccount & co. */
function walletElement(transaction: Transaction): [tag: string, value: XmlElement] | null {
  const { wallet, card } = transaction;
  const token = transaction.paymentMethodToken ?? null;
  switch (wallet?.kind) {
    case undefined:
      return null;
    case 'paypal_account':
      return [
        'paypal',
        {
          token,
          'payer-email': wallet.payerEmail,
          'payer-id': wallet.payerId,
          'payer-first-name': wallet.payerFirstName,
          'payer-last-name': wallet.payerLastName,
          'payment-id': wallet.paymentId,
          'billing-agreement-id': wallet.billingAgreementId,
          'authorization-id': `AUTH-${transaction.id.toUpperCase()}`,
          'image-url': 'https://assets.braintreegateway.com/payment_method_logo/paypal.png',
        },
      ];
    case 'venmo_account':
      return [
        'venmo-account',
        {
          token,
          username: wallet.username,
          'venmo-user-id': wallet.venmoUserId,
          'source-description': `Venmo Account: ${wallet.username}`,
          'image-url': 'https://assets.braintreegateway.com/payment_method_logo/venmo.png',
        },
      ];
    case 'apple_pay_card':
      return [
        'apple-pay',
        {
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
        },
      ];
    case 'android_pay_card':
      return [
        'android-pay-card',
        {
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
          'google-transaction-id': `google_${transaction.id}`,
          'image-url': 'https://assets.braintreegateway.com/payment_method_logo/android_pay_card.png',
        },
      ];
  }
}

/**
 * `payment-instrument-type` and the instrument's element: `credit-card` for cards; for a wallet, its own element
 * and an empty `credit-card`, as the provider answers (the SDK then reports an empty creditCard).
 */
export function paymentInstrumentXml(transaction: Transaction, cardXml: () => XmlElement): Record<string, XmlValue> {
  const element = walletElement(transaction);
  if (element === null || transaction.wallet === undefined || transaction.wallet === null)
    return { 'payment-instrument-type': 'credit_card', 'credit-card': cardXml() };
  const [tag, value] = element;
  return {
    'payment-instrument-type': transaction.wallet.kind,
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
