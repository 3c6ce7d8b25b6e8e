// The English sentences the card view does not show before a card can be typed: the fields' messages, those of a submit
// and its outcome (a card's tokenization failures, "Check your entries and try again.", the card selected, the request
// refused), and those of the saved methods, deletion, 3-D Secure and the wallets (issue 10: not in the card view's
// download). They come with the parts that show them: the runtime's part loaders (runtime/parts/load.ts) add them to
// English before a part is installed, the typing part's and the payment's too, which the frames' reports and a submit
// wait for. Every other locale's catalogue holds them all. It imports
// nothing: a module it shared with the card view would become a chunk of its own.
export const enOnDemand = {
  // A field's message, shown once the shopper has typed, or at a submit (the typing part and the payment's bring them).
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

  'sheet.cardSelected': '{brand} ending in {lastFour} is ready to pay.',

  // Section 8 of the specification, word for word.
  'error.threeDSecureFailed': 'Something went wrong during 3D Secure authentication. Please try again.',
  'error.cardAlreadySaved': 'This credit card already exists as a saved payment method.',
  'error.checkEntries': 'Check your entries and try again.',
  'error.cardVerificationFailed': 'Credit card verification failed.',
  'error.unsupportedCardType': 'This card type is not supported. Please try another card.',
  'error.deleteFailed': 'Unable to delete payment method, try again.',
  'error.cardInvalid': 'Credit card is invalid',
  'error.usePayPalButton': 'Use the PayPal button to continue with your payment.',

  'error.useWalletButton': 'Use the button above to continue with your payment.',
  'error.gateway': 'The payment service could not process the card. Please try again.',
  'error.sessionExpired': 'This payment session has expired. Reload the page to start again.',
  'error.choosePaymentOption': 'Choose a way to pay first.',
  'error.notReady': 'The payment form is not ready yet.',
  'error.requestInProgress': 'The card is already being processed.',
  'error.threeDSecureCanceled': 'The card check was cancelled. Press Pay to try again.',

  'methods.payingWith': 'Paying with {source}',
  'methods.choose': 'Choose a saved card',
  'methods.editHeading': 'Edit payment methods',
  'methods.edit': 'Edit',
  'methods.done': 'Done',
  'methods.card': '{brand} ending in {lastFour}',
  'methods.expires': 'Expires {month}/{year}',
  'methods.default': 'Default',
  'methods.hasSubscription': 'Pays for a subscription. Cancel the subscription to delete this card.',
  'delete.question': 'Delete {brand} card ending in {lastFour}?',
  'delete.cancel': 'Cancel',
  'delete.confirm': 'Delete',

  'threeDSecure.title': 'Confirm your card',

  // The ways to pay, their list and the toggle to it, "Save card": shown only beside a part (a wallet offered, saved
  // methods, `vaultCard`), so they come with it.
  'sheet.chooseWayToPay': 'Choose a way to pay',
  'sheet.otherWaysToPay': 'Other ways to pay',
  'sheet.chooseAnotherWay': 'Choose another way to pay',
  'card.saveCard': 'Save card',

  'option.card': 'Card',
  'option.paypal': 'PayPal',
  'option.paypalCredit': 'PayPal Credit',
  'option.venmo': 'Venmo',
  'option.applePay': 'Apple Pay',
  'option.googlePay': 'Google Pay',
  'option.unavailable': 'Not available right now',
} as const satisfies Record<string, string>;
