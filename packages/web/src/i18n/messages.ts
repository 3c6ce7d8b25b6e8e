import type { Decline, Problem } from '../api/types.ts';

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
  paymentTitle: 'Pay with card',
  haveAccountAtCheckout: 'Have an account?',
  signInAtCheckout: 'Sign in',
  cardDataNote: 'Card details go straight to the payment gateway: this shop never sees or stores them.',
  pay: (amount: string) => `Pay ${amount}`,
  paying: 'Paying…',
  checkingYouAreHuman: 'Checking that you are not a bot…',
  receiptTitle: 'Thank you, your payment went through',
  receiptPageTitle: 'Receipt',
  receiptOrderNumber: (number: number) => `Order ${number}`,
  receiptPlacedOn: (date: string) => `Placed on ${date}`,
  documentTitle: (page: string) => `${page} · Kassa Coffee`,
  skipToContent: 'Skip to content',
  viewReceipt: 'View the receipt',
  receiptPaidWith: (brand: string, lastFour: string) => `Paid with ${brand} ending in ${lastFour}`,
  receiptTransaction: (id: string) => `Transaction ${id}`,
  continueShopping: 'Continue shopping',
  loading: 'Loading…',
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
  accountMenu: 'Account',
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
  notFound: 'This page does not exist.',
} as const;

const problemMessages: Record<string, string> = {
  network_error: 'Network error. Please try again.',
  invalid_credentials: 'That email and password do not match an account.',
  email_taken: 'An account with this email already exists. Sign in instead.',
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
  three_d_secure_required: 'Your bank has to confirm this payment (3-D Secure). Please enter your card again, or use another card.',
};

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
  if (problem.code === 'validation_failed' && problem.errors?.length) {
    return problem.errors.map((error) => error.message).join(' ');
  }
  return problemMessages[problem.code] ?? 'Something went wrong. Please try again.';
}
