// Every user-facing string of the checkout. English is the reference catalogue: its keys are the MessageKey union,
// so a missing or misspelled key does not compile. The sentences quoted in the product specification (section 8)
// are used as they stand; the rest is our own wording.
export const en = {
  'sheet.loading': 'Loading the payment form…',
  'sheet.cardHeading': 'Pay with card',
  'sheet.acceptedCards': 'Accepted cards',
  'sheet.retry': 'Try again',
  'sheet.cardSelected': '{brand} ending in {lastFour} is ready to pay.',

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

  'field.cardholderName.empty': 'Enter the name shown on the card.',
  'field.cardholderName.invalid': 'This cardholder name is not valid.',
  'field.number.empty': 'Enter a card number.',
  'field.number.invalid': 'This card number is not valid.',
  'field.number.unsupported': 'This card type is not supported. Please try another card.',
  'field.expirationDate.empty': 'Enter an expiration date.',
  'field.expirationDate.invalid': 'This expiration date is not valid.',
  'field.cvv.empty': 'Enter the security code.',
  'field.cvv.invalid': 'This security code is not valid.',
  'field.postalCode.empty': 'Enter a postal code.',
  'field.postalCode.invalid': 'This postal code is not valid.',

  'error.checkEntries': 'Check your entries and try again.',
  'error.network': 'Network error. Please try again.',
  'error.cardInvalid': 'Credit card is invalid',
  'error.cardVerificationFailed': 'Credit card verification failed.',
  'error.unsupportedCardType': 'This card type is not supported. Please try another card.',
  'error.gateway': 'The payment service could not process the card. Please try again.',
  'error.sessionExpired': 'This payment session has expired. Reload the page to start again.',
  'error.invalidAuthorization':
    'The checkout cannot start: the authorization is missing or is not a valid client token. Pass the client token your server generated.',
  'error.authorizationRejected':
    'The checkout cannot start: the gateway rejected the client token (it may have expired). Generate a new one on your server.',
  'error.noPaymentOptions': 'No way to pay is available for this merchant.',
  'error.fieldsFailed': 'The card form could not load. Please try again.',
  'error.notReady': 'The payment form is not ready yet.',
  'error.requestInProgress': 'The card is already being processed.',
} as const satisfies Record<string, string>;

export type MessageKey = keyof typeof en;

/** A full translation: every key of the English catalogue, no more, no less. */
export type Catalogue = Readonly<Record<MessageKey, string>>;
