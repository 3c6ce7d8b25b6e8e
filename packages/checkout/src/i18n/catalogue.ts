import type { enOnDemand } from './catalogue-on-demand.ts';

// Every user-facing string of the checkout. English is the reference catalogue: its keys (these, the card view's, and
// those of catalogue-on-demand.ts, loaded with the parts that show them) are the MessageKey union, so a missing or
// misspelled key does not compile. The sentences quoted in the product specification (section 8)
// are used as they stand; the rest is our own wording.
export const en = {
  'sheet.loading': 'Loading the payment form…',
  'sheet.cardHeading': 'Pay with card',
  'sheet.acceptedCards': 'Accepted cards',
  'sheet.retry': 'Try again',
  'sheet.paying': 'Processing your payment…',

  'field.cardholderName.label': 'Cardholder name',
  'field.number.label': 'Card number',
  'field.expirationDate.label': 'Expiration date',
  'field.cvv.label': 'CVV',
  'field.cvv.label3': 'CVV (3 digits)',
  'field.cvv.label4': 'CVV (4 digits)',
  'field.postalCode.label': 'Postal code',
  'field.optional': '(optional)',

  'field.cardholderName.placeholder': 'Name on the card',
  'field.number.placeholder': '1234 5678 9012 3456',
  'field.expirationDate.placeholder': 'MM/YY',
  'field.cvv.placeholder': '123',
  'field.cvv.placeholder4': '1234',
  'field.postalCode.placeholder': '',

  // Section 8 of the specification, word for word.
  'error.allOptionsFailed': 'All payment options failed to load.',
  'error.network': 'Network error. Please try again.',

  // The provider failures, told apart in words a shopper understands (developer detail goes to the console).
  'error.gatewayUnavailable': 'The payment service is not available right now. Please try again.',
  'error.configurationFailed': 'The payment form could not be set up. Please try again.',
  'error.timeout': 'The payment service took too long to answer. Please try again.',
  'error.rateLimited': 'The payment service is busy right now. Please wait a moment and try again.',
  'error.insufficientPrivileges': 'This shop cannot take payments right now. Please contact the shop.',
  'error.authorizationRejected': 'This payment session is no longer valid. Reload the page to start again.',
  'error.invalidAuthorization': 'The payment form cannot start. Reload the page, or contact the shop if it happens again.',

  'error.noPaymentOptions': 'No way to pay is available for this shop.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en | keyof typeof enOnDemand;

/** A full translation: every key of the English catalogue, no more, no less. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
