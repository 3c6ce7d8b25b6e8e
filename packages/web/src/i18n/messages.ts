import type { Decline, Problem, SavedPaymentMethod } from '../api/types.ts';

// Every sentence the web app shows lives here (the checkout has its own catalogue for what happens inside it).
export const messages = {
  shopName: 'Kassa Coffee',
  homeLink: 'Kassa Coffee, home',
  shopTitle: 'Shop',
  shopHeadline: 'Good coffee, made at home',
  shopIntro: 'Beans roasted every week, and the gear to brew them the way you like.',
  productsTitle: 'All products',
  addToCart: 'Add to cart',
  addedToCart: (name: string) => `${name} added to your cart.`,
  cartLink: 'Cart',
  cartItems: (count: number) => (count === 1 ? '1 item' : `${count} items`),
  cartTitle: 'Your cart',
  cartEmpty: 'Your cart is empty.',
  cartEmptyHint: 'Find something you like in the shop.',
  browseShop: 'Browse the shop',
  quantityOf: (name: string) => `Quantity of ${name}`,
  eachPrice: (price: string) => `${price} each`,
  remove: 'Remove',
  removeItem: (name: string) => `Remove ${name}`,
  subtotal: 'Subtotal',
  shipping: 'Shipping',
  shippingFree: 'Free',
  total: 'Total',
  pricesConfirmed: 'Prices are confirmed at checkout.',
  goToCheckout: 'Go to checkout',
  checkoutTitle: 'Checkout',
  orderSummary: 'Order summary',
  showOrderSummary: 'Show order summary',
  hideOrderSummary: 'Hide order summary',
  payTo: (shop: string) => `Pay ${shop}`,
  paymentTitle: 'Payment',
  haveAccountAtCheckout: 'Have an account?',
  signInAtCheckout: 'Sign in',
  cardDataNote: 'Card details go straight to the payment gateway: this shop never sees or stores them.',
  pay: (amount: string) => `Pay ${amount}`,
  paying: 'Paying…',
  checkingYouAreHuman: 'Checking that you are not a bot…',
  botcheckCheckboxTitle: 'Bot check',
  botcheckCheckboxPrompt: 'Tick the box to show you are not a robot; we then go on.',
  botcheckAlertPrompt: 'This shop is seeing unusual card activity: please complete this check; we then go on.',
  receiptTitle: 'Thank you, your payment went through',
  receiptPageTitle: 'Receipt',
  receiptOrderNumber: (number: number) => `Order ${number}`,
  receiptPlacedOn: (date: string) => `Placed on ${date}`,
  documentTitle: (page: string) => `${page} · Kassa Coffee`,
  skipToContent: 'Skip to content',
  viewReceipt: 'View the receipt',
  receiptPaidWith: (brand: string, lastFour: string) =>
    lastFour === '' ? `Paid with ${brand}` : `Paid with ${brand} ending in ${lastFour}`,
  receiptTransaction: (id: string) => `Transaction ${id}`,
  continueShopping: 'Continue shopping',
  loading: 'Loading…',
  tryAgain: 'Try again',
  signIn: 'Sign in',
  signUp: 'Create an account',
  signOut: 'Sign out',
  email: 'Email',
  password: 'Password',
  name: 'Name',
  signedInAs: (name: string) => `Signed in as ${name}`,
  noAccount: 'No account yet?',
  guestOrdersTitle: 'Orders made on this device before signing in',
  guestOrderLine: (number: number, total: string, date: string) => `Order ${number}, ${total}, ${date}`,
  keepGuestOrders: 'Add these orders to my account (only if you made them)',
  haveAccount: 'Already have an account?',
  checkEmailTitle: 'Check your email',
  checkEmailText: (email: string) =>
    `We sent a message to ${email}. Open the link in it to finish creating your account; it works for 24 hours. If this address already has an account, the message says how to sign in.`,
  confirmSignUpTitle: 'Finish creating your account',
  confirmSignUp: 'Create my account',
  accountMenu: 'Account',
  accountMenuButton: 'Account menu',
  darkTheme: 'Dark theme',
  sandboxLabel: 'Test mode',
  sandboxTitle: 'Test mode:',
  sandboxNoMoney: 'no money moves.',
  sandboxCard: 'Test card',
  sandboxCardNumber: '4111 1111 1111 1111',
  sandboxCardRest: ', any future date, any CVV.',
  sandboxDecline: 'A total of exactly 2,000.00 is declined.',
  adminTitle: 'Admin',
  orderPaidAlready: 'This order is already paid.',
  // The account pages: orders, saved cards, subscriptions.
  accountTitle: 'Your account',
  accountNav: 'Account',
  accountSignInFirst: 'Sign in to see your orders, saved cards and subscriptions.',
  ordersTitle: 'Orders',
  ordersEmpty: 'No orders yet.',
  orderStatus: { pending: 'Awaiting payment', paid: 'Paid', refunded: 'Refunded', voided: 'Canceled' } as Record<string, string>,
  orderTotal: (total: string) => `Total ${total}`,
  payNow: 'Pay now',
  orderReceiptLink: (number: number) => `Receipt for order ${number}`,
  orderPayLink: (number: number) => `Pay now, order ${number}`,
  paymentMethodsTitle: 'Payment methods',
  paymentMethodsIntro: 'Cards and wallets saved here appear at checkout, so you can pay without typing them again.',
  paymentMethodsEmpty: 'No saved cards yet.',
  cardLabel: (brand: string, lastFour: string) => `${cardBrandName(brand)} ending in ${lastFour}`,
  /** A saved card or wallet as the shopper knows it: "Visa ending in 1111", "PayPal · pat@example.com", ... */
  savedMethodLabel: (method: SavedPaymentMethod) => savedMethodLabel(method),
  cardExpires: (month: string, year: string) => `Expires ${month.padStart(2, '0')}/${year}`,
  defaultBadge: 'Default',
  makeDefault: 'Make default',
  makeDefaultOf: (card: string) => `Make default: ${card}`,
  deleteCard: 'Delete',
  deleteCardOf: (card: string) => `Delete ${card}`,
  cardLocked: 'Pays for a subscription. Cancel the subscription to delete this card.',
  deleteCardQuestion: (card: string) => `Delete ${card}?`,
  deleteCardExplained: 'It will no longer be offered at checkout. This cannot be undone.',
  cancel: 'Cancel',
  cardDeleted: (card: string) => `${card} deleted.`,
  cardMadeDefault: (card: string) => `${card} is now your default card.`,
  addCard: 'Add a card',
  addCardTitle: 'Add a card',
  saveCard: 'Save card',
  saving: 'Saving…',
  makeDefaultOnSave: 'Make it my default payment method',
  cardSaved: (card: string) => `${card} saved.`,
  subscriptionsTitle: 'Subscriptions',
  subscriptionsEmpty: 'No subscriptions yet.',
  subscriptionStatus: {
    Active: 'Active',
    Pending: 'Starting',
    'Past Due': 'Payment overdue',
    Canceled: 'Canceled',
    Expired: 'Ended',
  } as Record<string, string>,
  pricePerPeriod: (price: string, months: number) => (months === 1 ? `${price} / month` : `${price} every ${months} months`),
  nextBilling: (date: string) => `Next payment on ${date}`,
  paidWithCard: (card: string) => `Paid with ${card}`,
  cancelSubscription: 'Cancel subscription',
  cancelSubscriptionOf: (plan: string) => `Cancel subscription: ${plan}`,
  cancelSubscriptionQuestion: (plan: string) => `Cancel ${plan}?`,
  cancelSubscriptionExplained: 'No further payments will be taken. Deliveries already paid for still arrive.',
  keepSubscription: 'Keep subscription',
  subscriptionCanceled: (plan: string) => `${plan} canceled.`,
  plansTitle: 'Subscribe and save',
  subscribe: 'Subscribe',
  subscribing: 'Subscribing…',
  subscribeWith: 'Pay with',
  subscribed: (plan: string) => `Subscribed to ${plan}. The first payment went through.`,
  newCard: 'A new card',
  newCardTitle: 'Pay with a new card',
  attemptBeingConfirmed:
    'Your last payment attempt is being confirmed with the card network. Press Pay again, or wait: this page updates by itself within about two minutes. You will not be charged twice.',
  attemptNotGoneThrough: 'Your last payment attempt did not go through. No money was taken.',
  notFound: 'This page does not exist.',
} as const;

const problemMessages: Record<string, string> = {
  network_error: 'Network error. Please try again.',
  invalid_credentials: 'That email and password do not match an account.',
  email_taken: 'An account with this email already exists. Sign in instead.',
  sign_up_link_invalid: 'This link has expired or was already used. Sign up again, or sign in if you finished already.',
  order_not_found: 'We could not find this order.',
  order_already_paid: 'This order is already paid.',
  botcheck_failed: 'We could not confirm that you are not a bot. Please try again.',
  botcheck_anchor_timeout: 'The bot-check did not load in time. Please try again.',
  botcheck_execute_timeout: 'The bot-check took too long. Please try again.',
  botcheck_unavailable: 'The bot-check is unavailable right now. Please try again.',
  idempotency_key_in_use: 'Your payment is still being processed. Please wait a moment, then press Pay again.',
  payment_in_progress: 'Your payment is still being processed. Please wait a moment, then press Pay again.',
  gateway_unavailable: 'The payment service did not answer. Press Pay again: you will not be charged twice.',
  rate_limited: 'Too many attempts. Please wait a minute and try again.',
  too_many_attempts: 'Too many attempts from here. Please wait a while before trying again.',
  cross_site_request: 'This request came from another site and was refused. Reload the page and try again.',
  payment_method_duplicate: 'This credit card already exists as a saved payment method.',
  wallet_already_saved: 'This account is already saved as a payment method.',
  card_verification_failed: 'Credit card verification failed.',
  payment_method_invalid: 'This payment method could not be saved. Please try again or choose another way to pay.',
  payment_method_not_found: 'This card is no longer saved. Reload the page to see your cards.',
  payment_method_has_subscription: 'This card pays for a subscription. Cancel the subscription first, then delete the card.',
  subscription_not_found: 'This subscription no longer exists. Reload the page to see your subscriptions.',
  subscription_declined: 'The first payment was declined, so the subscription did not start. Please try another card.',
  plan_not_found: 'This plan is no longer offered.',
  not_signed_in: 'Your session has ended. Please sign in again.',
  three_d_secure_required:
    'Your bank has to confirm this payment (3-D Secure). Please enter your card again, or use another card.',
};

/** Card brands as shoppers read them; the gateway's own spelling for the rest ("Visa", "American Express"). */
const WALLET_NAMES = {
  PayPalAccount: 'PayPal',
  VenmoAccount: 'Venmo',
  ApplePayCard: 'Apple Pay',
  AndroidPayCard: 'Google Pay',
} as const;

function savedMethodLabel(method: SavedPaymentMethod): string {
  const card = messages.cardLabel(method.brand, method.lastFour);
  switch (method.type) {
    case 'CreditCard':
      return card;
    case 'PayPalAccount':
      return `${WALLET_NAMES.PayPalAccount} · ${method.email ?? ''}`;
    case 'VenmoAccount':
      return `${WALLET_NAMES.VenmoAccount} · @${method.username ?? ''}`;
    default:
      return `${WALLET_NAMES[method.type]} · ${card}`;
  }
}

export function cardBrandName(brand: string): string {
  return brand === 'MasterCard' ? 'Mastercard' : brand;
}

/** A sentence for a declined payment, naming what the shopper can do next. */
export function declineMessage(decline: Decline | undefined): string {
  switch (decline?.reason) {
    case 'processor_declined':
      return decline.processorResponseText
        ? `Your card was declined (${decline.processorResponseText}). Please try another card.`
        : 'Your card was declined. Please try another card.';
    case 'processor_unavailable':
      return 'The card network could not be reached. No money was taken. Please try again in a moment.';
    case 'currency_mismatch':
      return 'This shop cannot take card payments right now. No money was taken. Please try again later.';
    default:
      return 'The payment was refused. Please try another card.';
  }
}

export function problemMessage(problem: Problem): string {
  if (problem.code === 'payment_declined') return declineMessage(problem.decline);
  if (problem.code === 'wallet_already_saved' && problem.paymentMethod !== undefined)
    return `${savedMethodLabel(problem.paymentMethod)} is already saved.`;
  if (problem.code === 'validation_failed' && problem.errors?.length) {
    return problem.errors.map((error) => error.message).join(' ');
  }
  return problemMessages[problem.code] ?? 'Something went wrong. Please try again.';
}
