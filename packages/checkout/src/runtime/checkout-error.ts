import type { CheckoutErrorCode, CheckoutErrorInfo } from '../machine/checkout.types.ts';

/** What onError receives and requestPaymentMethod() rejects with: a stable code and a readable message. */
export class CheckoutError extends Error {
  readonly code: CheckoutErrorCode;
  constructor(code: CheckoutErrorCode, message: string) {
    super(message);
    this.name = 'CheckoutError';
    this.code = code;
  }
}

/**
 * A part of the checkout (saved methods, 3-D Secure, wallets) did not download. No Try again: a browser keeps a module
 * that failed to download (Chromium answers every later import of its URL with the same failure without asking the
 * server again), so only a reload of the page loads it.
 */
export const NOT_DOWNLOADED: CheckoutErrorInfo = {
  code: 'network',
  messageKey: 'error.invalidAuthorization',
  retriable: false,
};
