import { PAYMENT_OPTIONS } from '@kassa/checkout';

/**
 * Whether the checkout shows a wallet's view (PayPal, Venmo, ...): there the wallet's own button pays or saves, so a
 * page hides its own Pay or Save button.
 */
export const isWalletView = (view: string): boolean => (PAYMENT_OPTIONS as readonly string[]).includes(view) && view !== 'card';
