import type { Card } from '../core/cards.ts';
import type { Customer } from '../core/customers.ts';
import type { ValidationError } from '../core/errors.ts';
import type { Transaction, TransactionResult } from '../core/transactions.ts';
import { postalCodeResponseCode, securityCodeResponseCode } from '../core/verification.ts';
import { threeDSecureInfoXml } from './serialize-three-d-secure.ts';
import { paymentInstrumentXml } from './serialize-wallets.ts';
import { dasherize, XmlList, XmlSymbol } from './xml.ts';
import type { XmlCollection, XmlElement, XmlValue } from './xml.ts';

// Domain records -> the provider's XML documents (as `[rootTag, value]` pairs for xmlDocument).

/** A document's root: an element, a list (plan.all answers `<plans type="array">`) or a search page (collection). */
export type XmlReply = readonly [rootTag: string, value: XmlElement | XmlList | XmlCollection];

/** A card's details as the provider writes them in a transaction and (with more fields) in the vault. */
export function cardDetailsXml(card: Card, token: string | null): XmlElement {
  return {
    token,
    bin: card.bin,
    'last-4': card.last4,
    'card-type': card.cardType,
    'expiration-month': card.expirationMonth,
    'expiration-year': card.expirationYear,
    'customer-location': 'US',
    'cardholder-name': card.cardholderName,
    'image-url': `https://assets.braintreegateway.com/payment_method_logo/${card.cardType.toLowerCase().replace(/ /g, '_')}.png`,
    'unique-number-identifier': card.uniqueNumberIdentifier,
    prepaid: card.binData.prepaid,
    healthcare: card.binData.healthcare,
    debit: card.binData.debit,
    'durbin-regulated': card.binData.durbinRegulated,
    commercial: card.binData.commercial,
    payroll: card.binData.payroll,
    'issuing-bank': card.binData.issuingBank,
    'country-of-issuance': card.binData.countryOfIssuance,
    'product-id': card.binData.productId,
    'account-type': 'credit',
  };
}

export function transactionXml(transaction: Transaction): XmlElement {
  const response = transaction.processorResponse;
  return {
    id: transaction.id,
    status: transaction.status,
    type: transaction.type,
    'currency-iso-code': transaction.currencyIsoCode,
    amount: transaction.amount,
    'merchant-account-id': transaction.merchantAccountId,
    'order-id': transaction.orderId,
    'created-at': transaction.createdAt,
    'updated-at': transaction.updatedAt,
    customer: { id: transaction.customerId },
    'processor-response-code': response?.code ?? '',
    'processor-response-text': response?.text ?? 'Unknown ()',
    'processor-response-type': response?.type ?? 'soft_declined',
    'processor-authorization-code': transaction.processorAuthorizationCode,
    'additional-processor-response': null,
    'gateway-rejection-reason': transaction.gatewayRejectionReason,
    'avs-error-response-code': null,
    'avs-postal-code-response-code': postalCodeResponseCode(transaction.card),
    'avs-street-address-response-code': 'I',
    'cvv-response-code': securityCodeResponseCode(transaction.card),
    ...paymentInstrumentXml(transaction, () => cardDetailsXml(transaction.card, transaction.paymentMethodToken ?? null)),
    'status-history': new XmlList(
      'status-event',
      transaction.statusHistory.map((event) => ({
        timestamp: event.timestamp,
        status: event.status,
        amount: event.amount,
        user: null,
        'transaction-source': 'api',
      })),
    ),
    'refund-ids': new XmlList('item', transaction.refundIds),
    'refunded-transaction-id': transaction.refundedTransactionId,
    'settlement-batch-id': transaction.settlementBatchId,
    'plan-id': transaction.planId ?? null,
    'subscription-id': transaction.subscriptionId ?? null,
    'add-ons': new XmlList('add-on', []),
    discounts: new XmlList('discount', []),
    disputes: new XmlList('dispute', []),
    recurring: transaction.recurring ?? false,
    'tax-exempt': false,
    'processed-with-network-token': false,
    'three-d-secure-info': threeDSecureInfoXml(transaction.threeDSecureInfo ?? null),
    // The provider's fraud tools: whether the sale carried device data (the data itself is not echoed).
    'risk-data': {
      id: `risk_${transaction.id}`,
      decision: 'Not Evaluated',
      'device-data-captured': transaction.deviceDataCaptured,
      'fraud-service-provider': 'kount',
    },
  };
}

export function customerXml(customer: Customer, creditCards: readonly XmlElement[] = []): XmlElement {
  return {
    id: customer.id,
    'merchant-id': null,
    'first-name': customer.firstName,
    'last-name': customer.lastName,
    company: customer.company,
    email: customer.email,
    phone: customer.phone,
    fax: null,
    website: null,
    'created-at': customer.createdAt,
    'updated-at': customer.updatedAt,
    'custom-fields': '',
    'credit-cards': new XmlList('credit-card', creditCards),
    addresses: new XmlList('address', []),
  };
}

function errorEntry(error: ValidationError): XmlElement {
  return { code: error.code, attribute: new XmlSymbol(error.attribute), message: error.message };
}

interface ErrorTree {
  errors: ValidationError[];
  children: Map<string, ErrorTree>;
}

/** Nest errors by path: `<errors><errors type="array"/><transaction><errors type="array">...` as the provider does. */
function errorsXml(errors: readonly ValidationError[]): XmlElement {
  const root: ErrorTree = { errors: [], children: new Map() };
  for (const error of errors) {
    let node = root;
    for (const segment of error.path) {
      let child = node.children.get(segment);
      if (!child) {
        child = { errors: [], children: new Map() };
        node.children.set(segment, child);
      }
      node = child;
    }
    node.errors.push(error);
  }
  const toXml = (node: ErrorTree): XmlElement => {
    const children: Record<string, XmlValue> = { errors: new XmlList('error', node.errors.map(errorEntry)) };
    for (const [segment, child] of node.children) children[dasherize(segment)] = toXml(child);
    return children;
  };
  return toXml(root);
}

/** Echo of the request parameters, flattened to strings like the provider's `<params>`. */
function paramsXml(params: unknown): XmlValue {
  if (params === null || params === undefined) return '';
  if (typeof params !== 'object') return String(params);
  const entries: Record<string, XmlValue> = {};
  for (const [key, value] of Object.entries(params as Record<string, unknown>)) {
    entries[dasherize(key)] = paramsXml(value);
  }
  return entries;
}

export function errorResponseXml(
  errors: readonly ValidationError[],
  message: string,
  params: unknown,
  transaction?: Transaction,
): readonly [rootTag: string, value: XmlElement] {
  const body: Record<string, XmlValue> = { errors: errorsXml(errors), params: paramsXml(params), message };
  if (transaction !== undefined) body['transaction'] = transactionXml(transaction);
  return ['api-error-response', body];
}

/** A transaction operation's result: success -> `<transaction>`, anything else -> `<api-error-response>`. */
export function transactionResultXml(result: TransactionResult, params: unknown): XmlReply {
  switch (result.kind) {
    case 'success':
      return ['transaction', transactionXml(result.transaction)];
    case 'unsuccessful':
      return errorResponseXml([], result.message, params, result.transaction);
    case 'invalid':
      return errorResponseXml(result.errors, result.message, params);
  }
}
