import type { NonceRecord } from '../core/nonces.ts';
import type { Plan } from '../core/plans.ts';
import type { CardView, CustomerView, SubscriptionView, VerificationFailed } from '../core/vault-operations.ts';
import type { Verification } from '../core/verification.ts';
import type { Card } from '../core/cards.ts';
import { NONCE_TYPE } from '../core/wallets.ts';
import type { WalletAccount, WalletKind } from '../core/wallets.ts';
import { walletDetailsXml } from './serialize-wallets.ts';
import { cardDetailsXml, customerXml, errorResponseXml, transactionXml } from './serialize.ts';
import type { XmlReply } from './serialize.ts';
import { XmlList } from './xml.ts';
import type { XmlElement } from './xml.ts';

// The vault's and subscriptions' records -> the provider's XML (credit-card, verification, subscription, plan,
// payment-method-nonce), beside serialize.ts's transactions and customers.

export function verificationXml(verification: Verification): XmlElement {
  const response = verification.processorResponse;
  return {
    id: verification.id,
    status: verification.status,
    amount: verification.amount,
    'currency-iso-code': verification.currencyIsoCode,
    'merchant-account-id': verification.merchantAccountId,
    'processor-response-code': response?.code ?? null,
    'processor-response-text': response?.text ?? null,
    'processor-response-type': response?.type ?? null,
    'gateway-rejection-reason': verification.gatewayRejectionReason,
    'cvv-response-code': verification.securityCodeResponseCode,
    'avs-error-response-code': null,
    'avs-postal-code-response-code': verification.avsPostalCodeResponseCode,
    'avs-street-address-response-code': 'I',
    'credit-card': cardDetailsXml(verification.card, verification.paymentMethodToken),
    billing: { 'postal-code': verification.card.postalCode },
    'created-at': verification.createdAt,
    'updated-at': verification.createdAt,
  };
}

export function subscriptionXml({ subscription, transactions }: SubscriptionView): XmlElement {
  return {
    id: subscription.id,
    status: subscription.status,
    'plan-id': subscription.planId,
    price: subscription.price,
    balance: subscription.balance,
    'currency-iso-code': subscription.currencyIsoCode,
    'merchant-account-id': subscription.merchantAccountId,
    'payment-method-token': subscription.paymentMethodToken,
    'billing-day-of-month': subscription.billingDayOfMonth,
    'billing-period-start-date': subscription.billingPeriodStartDate,
    'billing-period-end-date': subscription.billingPeriodEndDate,
    'current-billing-cycle': subscription.currentBillingCycle,
    'days-past-due': subscription.daysPastDue,
    'failure-count': subscription.failureCount,
    'first-billing-date': subscription.firstBillingDate,
    'next-billing-date': subscription.nextBillingDate,
    'next-bill-amount': subscription.price,
    'next-billing-period-amount': subscription.price,
    'number-of-billing-cycles': subscription.numberOfBillingCycles,
    'never-expires': subscription.numberOfBillingCycles === null,
    'paid-through-date': subscription.paidThroughDate,
    'trial-period': subscription.trialPeriod,
    'trial-duration': subscription.trialDuration === null ? null : String(subscription.trialDuration),
    'trial-duration-unit': subscription.trialDurationUnit,
    'created-at': subscription.createdAt,
    'updated-at': subscription.updatedAt,
    'add-ons': new XmlList('add-on', []),
    discounts: new XmlList('discount', []),
    descriptor: { name: null, phone: null, url: null },
    // Newest first, as the provider lists a subscription's history (a transaction's is oldest first).
    'status-history': new XmlList(
      'status-event',
      [...subscription.statusHistory].reverse().map((event) => ({
        status: event.status,
        price: event.price,
        balance: event.balance,
        'plan-id': event.planId,
        'currency-iso-code': event.currencyIsoCode,
        'subscription-source': event.subscriptionSource,
        user: null,
        timestamp: event.timestamp,
      })),
    ),
    transactions: new XmlList('transaction', transactions.map(transactionXml)),
  };
}

/** What the vault saved, by the element the provider names it with (and the customer's list it goes in). */
export type VaultedKind = 'credit-card' | 'paypal-account' | 'venmo-account' | 'apple-pay-card' | 'android-pay-card';

const VAULTED_KIND: Readonly<Record<WalletKind, VaultedKind>> = {
  paypal_account: 'paypal-account',
  venmo_account: 'venmo-account',
  apple_pay_card: 'apple-pay-card',
  android_pay_card: 'android-pay-card',
};

/**
 * A saved wallet: the account's details (a PayPal account's `email`, a Venmo `username`, the phones' cards), owner,
 * default flag and subscriptions, as the SDK parses `paypalAccounts`, `venmoAccounts`, `applePayCards`, `androidPayCards`.
 */
function vaultedWalletXml({ saved, subscriptions, expired }: CardView, wallet: WalletAccount): XmlElement {
  const details = walletDetailsXml(wallet, saved.card, saved.token);
  return {
    ...details,
    ...(wallet.kind === 'paypal_account' ? { email: wallet.payerEmail, 'is-channel-initiated': false, 'revoked-at': null } : {}),
    ...(wallet.kind === 'apple_pay_card' || wallet.kind === 'android_pay_card' ? { expired } : {}),
    'customer-id': saved.customerId,
    default: saved.isDefault,
    'created-at': saved.createdAt,
    'updated-at': saved.updatedAt,
    subscriptions: new XmlList('subscription', subscriptions.map(subscriptionXml)),
  };
}

/** A saved method as paymentMethod.create / find / update answer it: the root element names its kind. */
export function vaultedMethodXml(view: CardView): readonly [rootTag: VaultedKind, value: XmlElement] {
  const { wallet } = view.saved;
  if (wallet === undefined || wallet === null) return ['credit-card', vaultedCardXml(view)];
  return [VAULTED_KIND[wallet.kind], vaultedWalletXml(view, wallet)];
}

/** A saved card: its details, owner, default flag, subscriptions and latest verification. */
function vaultedCardXml({ saved, subscriptions, expired }: CardView): XmlElement {
  return {
    ...cardDetailsXml(saved.card, saved.token),
    'customer-id': saved.customerId,
    default: saved.isDefault,
    expired,
    'venmo-sdk': false,
    'created-at': saved.createdAt,
    'updated-at': saved.updatedAt,
    'billing-address': saved.card.postalCode === null ? null : { 'postal-code': saved.card.postalCode },
    subscriptions: new XmlList('subscription', subscriptions.map(subscriptionXml)),
    verifications: new XmlList('verification', saved.verification === null ? [] : [verificationXml(saved.verification)]),
  };
}

/** A customer with its saved methods, each in its kind's list (`credit-cards`, `paypal-accounts`, ...). */
export function customerViewXml(view: CustomerView): XmlElement {
  const lists: Record<VaultedKind, XmlElement[]> = {
    'credit-card': [],
    'paypal-account': [],
    'venmo-account': [],
    'apple-pay-card': [],
    'android-pay-card': [],
  };
  for (const card of view.cards) {
    const [kind, element] = vaultedMethodXml(card);
    lists[kind].push(element);
  }
  const { 'credit-card': creditCards, ...wallets } = lists;
  return {
    ...customerXml(view.customer, creditCards),
    ...Object.fromEntries(Object.entries(wallets).map(([kind, items]) => [`${kind}s`, new XmlList(kind, items)])),
  };
}

export function planXml(plan: Plan): XmlElement {
  return {
    id: plan.id,
    name: plan.name,
    description: plan.description,
    price: plan.price,
    'currency-iso-code': plan.currencyIsoCode,
    'billing-frequency': plan.billingFrequency,
    'billing-day-of-month': plan.billingDayOfMonth,
    'number-of-billing-cycles': plan.numberOfBillingCycles,
    'trial-period': plan.trialPeriod,
    'trial-duration': plan.trialDuration,
    'trial-duration-unit': plan.trialDurationUnit,
    'add-ons': new XmlList('add-on', []),
    discounts: new XmlList('discount', []),
  };
}

/** What a wallet nonce's details say (the provider's: the PayPal email, the Venmo username, a phone wallet's card). */
function walletNonceDetails(wallet: WalletAccount, card: Card): XmlElement {
  switch (wallet.kind) {
    case 'paypal_account':
      return { email: wallet.payerEmail, 'payer-id': wallet.payerId };
    case 'venmo_account':
      return { username: wallet.username, 'venmo-user-id': wallet.venmoUserId };
    case 'apple_pay_card':
      return { 'card-type': card.cardType, 'last-four': card.last4, 'last-two': card.last4.slice(-2) };
    case 'android_pay_card':
      return {
        'card-type': wallet.sourceCardType,
        'last-four': wallet.sourceCardLast4,
        'last-two': wallet.sourceCardLast4.slice(-2),
        'is-network-tokenized': wallet.isNetworkTokenized !== false,
      };
  }
}

/** paymentMethodNonce.create / find: a card's nonce, or a wallet's with its own type and details (no card ones). */
export function paymentMethodNonceXml(record: NonceRecord): XmlElement {
  const { card, wallet } = record;
  if (wallet !== undefined && wallet !== null) {
    return {
      nonce: record.nonce,
      type: NONCE_TYPE[wallet.kind],
      default: false,
      consumed: record.consumed,
      'is-locked': false,
      details: walletNonceDetails(wallet, card),
      'three-d-secure-info': null,
      'security-questions': new XmlList('item', []),
    };
  }
  return {
    nonce: record.nonce,
    type: 'CreditCard',
    default: false,
    consumed: record.consumed,
    'is-locked': false,
    details: {
      bin: card.bin,
      'last-two': card.last4.slice(-2),
      'last-four': card.last4,
      'card-type': card.cardType,
      'expiration-month': card.expirationMonth,
      'expiration-year': card.expirationYear,
      'cardholder-name': card.cardholderName,
    },
    'bin-data': {
      commercial: card.binData.commercial,
      'country-of-issuance': card.binData.countryOfIssuance,
      debit: card.binData.debit,
      'durbin-regulated': card.binData.durbinRegulated,
      healthcare: card.binData.healthcare,
      'issuing-bank': card.binData.issuingBank,
      payroll: card.binData.payroll,
      prepaid: card.binData.prepaid,
      'product-id': card.binData.productId,
    },
    'three-d-secure-info': null,
    'security-questions': new XmlList('item', []),
  };
}

/** A failed verification: `<api-error-response>` with the verification and no errors, as the provider answers it. */
export function verificationFailedXml(failure: VerificationFailed, params: unknown): XmlReply {
  const [tag, body] = errorResponseXml(failure.errors, failure.message, params);
  return [tag, { ...body, verification: verificationXml(failure.verification) }];
}
